# expect: 2:8: expected expression, found NEWLINE
x = 1 +
