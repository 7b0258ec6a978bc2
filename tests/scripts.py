"""Load a script of the repository (bench/, tools/, examples/) as a module, for its tests.

These scripts are run by path, not imported from the package, so a test reaches their
functions through this one loader rather than through importlib by hand in each file.
"""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_script(relative: str, name: str) -> ModuleType:
    """The script at ``ROOT/relative`` executed as the module ``name``.

    The module stays in ``sys.modules`` under ``name`` (a dataclass of the script looks its
    module up there); loading it again runs the script again and replaces the entry.
    """
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path} as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
