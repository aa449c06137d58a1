# expect: 2:8: f-string: single '}' is not allowed
s = f"a}b"
