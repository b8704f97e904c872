"""load.py - every generated Python module imports, and its builders run

usage: python3 load.py DIR MODULE=DESIGN...

Imports each module from DIR in this one process (a module that does not
import, a NameError of a name used before it is defined, a source Python
cannot read, is a failure naming the design) and calls each key builder it
has (<key>_FMT_ names a key's shape; its builder is the shape's name in
lower case) with a value per parameter: a Number 7, an enum's values,
else a short text the builder takes. The key must be text that the key's
parser reads back. Prints one line per failure and a count; exit 1 on any
failure.
"""
import importlib
import inspect
import sys
import traceback
import typing

# Text values to try in turn: a builder refuses one that holds the literal
# after its part (the parser would end the part there).
TEXTS = ("q", "Zz9", "7", "-")


def values_for(func, shape):
    """Per parameter of shape, the values to try, in parameter order."""
    hints = typing.get_type_hints(func)
    names = list(inspect.signature(func).parameters)
    params = {}
    for piece in shape:
        if isinstance(piece, str):
            continue
        index, _width, number, _name = piece
        params[index] = number
    out = []
    for index in sorted(params):
        if params[index]:
            out.append((7,))
            continue
        hint = hints.get(names[index]) if index < len(names) else None
        if typing.get_origin(hint) is typing.Literal:
            out.append(typing.get_args(hint))
        else:
            out.append(TEXTS)
    return out


def build(func, choices):
    """The key func builds from the first values it takes, and them."""
    last = None
    for k in range(max(len(c) for c in choices) if choices else 1):
        args = [c[min(k, len(c) - 1)] for c in choices]
        try:
            return func(*args), args
        except Exception as e:  # the module's KeyBuildError
            last = e
    raise last


def check(m):
    """The failures of module m's builders, and how many ran."""
    failures, ran = [], 0
    for name in sorted(vars(m)):
        if not name.endswith("_FMT_"):
            continue
        func = getattr(m, name[: -len("_FMT_")].lower(), None)
        if not callable(func):
            continue  # a pattern's value shape: its request builds it
        shape = getattr(m, name)
        try:
            key, args = build(func, values_for(func, shape))
        except Exception as e:
            failures.append("%s%r: %s" % (func.__name__, tuple(values_for(func, shape)), e))
            continue
        ran += 1
        parse = getattr(m, func.__name__ + "_parse", None)
        if not isinstance(key, str):
            failures.append("%s%r gives %r, no text" % (func.__name__, tuple(args), key))
        elif parse is not None and parse(key) is None:
            failures.append("%s(%r) does not read %s's key back" % (parse.__name__, key,
                                                                      func.__name__))
    return failures, ran


def main():
    directory = sys.argv[1]
    sys.path.insert(0, directory)
    failed, modules, builders = 0, 0, 0
    for arg in sys.argv[2:]:
        module, design = arg.split("=", 1)
        try:
            m = importlib.import_module(module)
        except BaseException:
            last = traceback.format_exc().strip().splitlines()[-1]
            print("FAIL: the Python module of %s does not import: %s" % (design, last))
            failed += 1
            continue
        modules += 1
        failures, ran = check(m)
        builders += ran
        for f in failures:
            print("FAIL: the Python module of %s: %s" % (design, f))
        failed += len(failures)
    print("python: %d modules imported, %d builders ran" % (modules, builders))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
