"""schemathesis's command line, with one CPython bug stepped around.

Before CPython 3.11.8 and 3.12.1, `ast.parse` called deep in a recursion can raise
`SystemError: AST constructor recursion depth mismatch` (python/cpython#106905). Hypothesis
parses source that way only to describe a filter's lambda in a strategy's repr, so such a
lambda is described as unknown instead of ending the run with an error that has nothing to
do with the API under test.
"""
import sys

from hypothesis.internal import lambda_sources

describe = getattr(lambda_sources, "_lambda_description", None)
if describe is not None:
    def _described(function, *args, **kwargs):
        try:
            return describe(function, *args, **kwargs)
        except SystemError:
            return "lambda: <unknown>"

    lambda_sources._lambda_description = _described

from schemathesis.cli import schemathesis  # noqa: E402  (after the patch it relies on)

sys.exit(schemathesis())
