"""Rule conformance tests: one test (or more) per rule id of RULES.md (S…, V…, A…)."""
