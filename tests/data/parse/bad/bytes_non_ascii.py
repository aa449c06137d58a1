# expect: 2:10: bytes can only contain ASCII literal characters
b = b'café'
