"""An object whose `evaluate` calls are counted (a page's calls into it, a client's /evaluate requests)."""


class CountedEvaluations:
    def __init__(self, wrapped):
        self.wrapped, self.calls = wrapped, 0

    def evaluate(self, *args, **kwargs):
        self.calls += 1
        return self.wrapped.evaluate(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.wrapped, name)
