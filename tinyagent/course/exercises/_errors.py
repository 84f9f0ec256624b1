"""Python's own error messages, as a Chinese report shows a crash of learner code.

Used by `check` (notebook 00 introduces it): when the learner's code raises, the
report shows the exception's type and message. Python writes the message in
English; in a Chinese report the common ones a beginner meets ("'dict' object has
no attribute 'role'", "f() takes 2 positional arguments but 3 were given") are
retold in Chinese, with the names, numbers and types kept as they are. A message
no pattern knows is shown as Python wrote it.
Left out: every other message, and Python's own localisation (it has none).
"""

from __future__ import annotations

import re

NAME = r"'([^']+)'"
# (Python's message, the Chinese one): the groups keep names, types and counts.
PATTERNS: tuple[tuple[str, str], ...] = (
    (rf"{NAME} object has no attribute {NAME}", r"'\1' 对象没有属性 '\2'"),
    (rf"{NAME} object is not subscriptable", r"'\1' 对象不支持下标"),
    (rf"{NAME} object is not iterable", r"'\1' 对象不可迭代"),
    (rf"{NAME} object is not callable", r"'\1' 对象不可调用"),
    (rf"{NAME} object cannot be interpreted as an integer", r"'\1' 对象不能当作整数"),
    (rf"{NAME} object does not support item assignment", r"'\1' 对象不支持下标赋值"),
    (r"(\S+) takes (\d+) positional arguments? but (\d+) (?:was|were) given",
     r"\1 接受 \2 个位置参数，却传入了 \3 个"),
    (r"(\S+) missing (\d+) required positional arguments?: (.+)",
     r"\1 缺少 \2 个必需的位置参数：\3"),
    (r"(\S+) got an unexpected keyword argument (.+)", r"\1 收到意外的关键字参数 \2"),
    (rf"name {NAME} is not defined", r"名字 '\1' 未定义"),
    (rf"unhashable type: {NAME}", r"不可哈希的类型：'\1'"),
    (rf"unsupported operand type\(s\) for (.+): {NAME} and {NAME}",
     r"运算 \1 不支持 '\2' 和 '\3' 类型"),
    (r'can only concatenate (\w+) \(not "(\w+)"\) to \w+',
     r'只能把 \1 和 \1 拼接，不能拼接 "\2"'),
    (r"(?:list|tuple|string) index out of range", "下标越界"),
    (r"(?:integer |float )?division(?: or modulo)? by zero", "除数为零"),
    (r"max\(\) (?:arg|iterable argument) is an empty sequence", "max() 的参数是空序列"),
    (r"min\(\) (?:arg|iterable argument) is an empty sequence", "min() 的参数是空序列"),
)


def in_chinese(message: str) -> str:
    """`message` retold in Chinese if a pattern knows it, else as it was."""
    for english, chinese in PATTERNS:
        if re.fullmatch(english, message):
            return re.sub(english, chinese, message)
    return message


__all__ = ["in_chinese"]
