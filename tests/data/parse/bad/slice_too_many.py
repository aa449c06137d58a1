# expect: 2:8: expected ',' or ']' in subscript, found ':'
a[1:2:3:4]
