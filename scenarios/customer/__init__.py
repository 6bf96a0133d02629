"""The customer on the line, simulated by the server for the `hard` suite (issue 24): rule-based and
deterministic, a pure function of what the customer knows and the transcript so far.

- `facts.py`: what the customer knows (the hidden facts) and how each is said and recognised.
- `reading.py`: what one line of the agent asks for, and what it reads back.
- `simulator.py`: the customer's reply, decided part by part.
- `variants/`: the customer variants (issue 45), each saying those parts its own way.
"""
