# expect: 2:7: unterminated triple-quoted string starting here
doc = """starts
and never
ends
