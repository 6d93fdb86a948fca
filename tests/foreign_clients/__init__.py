"""Stand-alone clients written the way third-party 2019 clients were, for compatibility tests.

They use only the standard library (no code of this project), their own reading of the
Piranhas rules, and the assumptions real clients made about the official server's output.
"""
