"""The symbolic twin of the interpreter: the same rules run on Z3 terms, for the proofs
(verifier/prove.py); each module mirrors its namesake in interpreter/."""
