# expect: 2:1: non-ASCII character 'é' outside a string or comment (identifiers must be ASCII)
été = 1
