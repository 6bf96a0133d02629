"""Task types, their gold action sequences and success checks, and the evaluator."""
