# expect: 2:9: f-string: expecting '}'
s = f"{x"
