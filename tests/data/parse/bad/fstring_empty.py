# expect: 2:9: f-string: empty expression not allowed
s = f"{ }"
