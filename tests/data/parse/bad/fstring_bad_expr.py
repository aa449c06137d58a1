# expect: 2:16: f-string: expected '}' after the expression, found 'b'
s = f"value {a b}"
