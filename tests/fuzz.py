"""How hard the property tests push: a few seconds in `make test`, much longer in `make fuzz`
(COMPANION_FUZZ_EXAMPLES=...). Counts of what each input ended as are printed with -s."""
import os

from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("COMPANION_FUZZ_EXAMPLES", "100"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 100,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
