"""The examples in the package's docstrings run as written."""
import doctest

import ptxfu


def test_docstring_examples():
    failures, tried = doctest.testmod(ptxfu, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried > 0 and failures == 0
