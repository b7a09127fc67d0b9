"""Property: any bytes in the config file give a Config and warnings, never an exception; each
warning names the file; the values kept have the types the app relies on; a key the damage did
not touch keeps its value. Inputs: the shipped config, damaged line by line or byte by byte."""
from pathlib import Path

from fuzz import FUZZ, tally
from hypothesis import given
from hypothesis import strategies as st

from hardware.config import Config, load_config

SHIPPED = (Path(__file__).resolve().parents[2] / "systemd" / "config.toml").read_text(encoding="utf-8")
# One value set apart, on a line the damage never touches: it must survive damage elsewhere.
SENTINEL = "height = 611"
SHIPPED = SHIPPED.replace("height = 480", SENTINEL, 1)

toml_values = st.one_of(
    st.sampled_from(["[" * 40 + "]" * 40, "[" * 5000 + "]" * 5000, "9" * 5000, "-" + "1" * 31, "1e999",
                     '"hwgrep://["', '"hwgrep://(a"', '"~no_such_user_x/d"', '"~"', "nan", "inf", "true",
                     '"\\ud800"', "{ a = [ [ [ ] ] ] }", '"""x', "[[[", "0x" + "f" * 40, "1979-05-27",
                     '{pin = 99, press = "next"}', "[1, \"a\"]", "''", '"/dev/ttyACM0"']),
    st.integers(-10**40, 10**40).map(str),
    st.floats(allow_nan=True).map(repr),
    st.text(max_size=20).map(lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'),
)


@st.composite
def damaged_configs(draw):
    lines = SHIPPED.split("\n")
    how = draw(st.sampled_from(["value", "line", "bytes", "cut", "deep-lines"]))
    n = draw(st.integers(0, len(lines) - 1).filter(lambda i: not lines[i].startswith(SENTINEL)))
    keyed = [i for i, line in enumerate(lines)
             if "=" in line and not line.lstrip().startswith("#") and not line.startswith(SENTINEL)]
    i = draw(st.sampled_from(keyed))
    key = lines[i].split("=", 1)[0].strip()
    if how == "value":
        lines[i] = f"{key} = {draw(toml_values)}"
    elif how == "line":
        lines[n] = draw(st.text(max_size=40))
    elif how == "cut":
        lines = lines[:n]
    elif how == "deep-lines":  # a value over many lines, nested past the bound
        depth = draw(st.integers(33, 600))
        lines[i] = f"{key} = " + "[\n" * depth + "]\n" * depth
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if how == "bytes":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
        if SENTINEL.encode() not in data:
            data += b"\n"  # the bytes fell inside the sentinel: no key left to check
    return how, data


def _types_ok(config: Config) -> bool:
    s, g, p = config.screen, config.gpio, config.panel
    return (all(isinstance(x, int) and not isinstance(x, bool) for x in (s.width, s.height, s.rotation))
            and isinstance(s.fullscreen, bool) and isinstance(g.hold_time, float) and isinstance(p.port, str)
            and isinstance(config.data_dir, Path) and isinstance(config.camera.model, str)
            and all(isinstance(c, str) for chords in config.keys.values() for c in chords))


@FUZZ
@given(damaged_configs())
def test_a_damaged_config_gives_defaults_per_key_never_an_exception(tmp_path_factory, case):
    how, data = case
    path = tmp_path_factory.mktemp("cfg") / "config.toml"
    path.write_bytes(data)
    config, warnings = load_config(path, env={"HOME": str(path.parent)})
    assert _types_ok(config)
    assert all(w.startswith(f"{path}: ") for w in warnings), warnings
    whole_file = any("using the defaults for everything" in w for w in warnings)
    if not whole_file and how in ("value", "deep-lines") and SENTINEL.encode() in data:
        assert config.screen.height == 611  # the damage stayed with its own key
    tally("config", "whole file refused" if whole_file else "keys fell back" if warnings else "read")
