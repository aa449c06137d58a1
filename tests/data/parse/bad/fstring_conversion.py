# expect: 2:10: f-string: invalid conversion character: expected 's', 'r', or 'a'
s = f"{x!z}"
