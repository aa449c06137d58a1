# expect: 2:6: truncated \xXX escape
s = "\x4"
