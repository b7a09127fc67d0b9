"""The Civility data files refuse a key their format does not know, naming it and the nearest key."""
import pytest

from companion.engine.core import DataFileError
from companion.engine.civility.tables import _events, _ring, _status, read_toml


@pytest.mark.parametrize("read, name, mutate, key, near", [
    (_ring, "ring.toml", lambda d: d["actions"].__setitem__("atack", [6]), "actions.atack", "attack"),
    (_ring, "ring.toml", lambda d: d["table"].__setitem__("hand_limt", 4), "table.hand_limt", "hand_limit"),
    (_ring, "ring.toml", lambda d: d.__setitem__("batle", {}), "batle", "battle"),
    (_status, "status.toml", lambda d: d["card"][0].__setitem__("win", 1), "card[0].win", "wins"),
    (_status, "status.toml", lambda d: d["perks"].__setitem__("departmens", []), "perks.departmens", "departments"),
    (_events, "events.toml", lambda d: d["event"][0].__setitem__("citty", ""), "event[0].citty", "city"),
    (_events, "events.toml", lambda d: d["rules"].__setitem__("pandemic_los", 1), "rules.pandemic_los", "pandemic_loss"),
])
def test_an_unknown_key_in_a_data_file_is_refused(read, name, mutate, key, near):
    data = read_toml(name)
    read(data, name)  # the shipped file reads
    mutate(data)
    with pytest.raises(DataFileError) as err:
        read(data, name)
    assert err.value.key == key and str(err.value) == f"{name}: {key}: unknown key; did you mean {near}?"
