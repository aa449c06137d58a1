# expect: 4:9: multiple exception types must be parenthesized
try:
    pass
except A, B:
    pass
