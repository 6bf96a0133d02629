"""Start the AirlineCRM server: python run.py [--host 127.0.0.1] [--port 5000] [--db URL] [--instance FOLDER]
[--public-url URL] [--suite full|paper|hard] [--customer-model MODEL [--customer-base-url URL]] [--workers N]
[--threads N]. The same as `airlinecrm serve` (airlinecrm/serve.py), which serves with gunicorn."""
import sys

from airlinecrm.serve import main

if __name__ == "__main__":
    sys.exit(main(prog="run.py"))
