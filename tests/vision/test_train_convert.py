"""python -m vision.train --convert-from: a saved network converted without training (issue 14 round 51). The
conversion itself needs TensorFlow, which tests do not have; the refusals are checked here."""
import pytest

from vision.train.__main__ import parse


def test_convert_from_takes_a_float_conversion(tmp_path):
    args = parse(["--convert-from", str(tmp_path / "n.keras"), "--quantize", "float16", "--out", str(tmp_path)])
    assert args.convert_from.name == "n.keras" and args.quantize == "float16"


@pytest.mark.parametrize("quantize", ["int8", "auto"])
def test_convert_from_refuses_a_conversion_that_needs_the_training_crops(tmp_path, quantize, capsys):
    with pytest.raises(SystemExit):
        parse(["--convert-from", str(tmp_path / "n.keras"), "--quantize", quantize])
    assert f"float16 or float32 (int8 needs the rendered training crops to calibrate its ranges: train instead), " \
           f"not {quantize}" in capsys.readouterr().err
