"""Load and crash tests: a real gunicorn server driven over HTTP by many clients at once."""
