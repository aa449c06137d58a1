# CRLF line ends and no final newline.
x = """a
b"""
if x:
    y = 1
z = 2