"""Error messages retold in Chinese, as a Chinese report shows a crash.

Used by `check` (notebook 00 introduces it): when the learner's code raises, the
report shows the exception's type and message. Python writes the message in
English; in a Chinese report the common ones a beginner meets ("'dict' object has
no attribute 'role'", "f() takes 2 positional arguments but 3 were given") are
retold in Chinese, with the names, numbers and types kept as they are, and so is
the offline model's rejection of a malformed request (a tool result without its
call: the slip notebook 03 teaches). A message no pattern knows is shown as it was.
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
# The offline model's refusal, as LlmError words it (llm.py, offline/model.py).
REJECTED: tuple[tuple[str, str], ...] = (
    (r"model call failed: HTTP (\d+) from the offline model: Error code: \d+ - ",
     r"模型调用失败：离线模型返回 HTTP \1："),
    (r"messages\[(\d+)\]: messages with role 'tool' must be a response to a "
     r"preceding message with 'tool_calls' \(tool_call_id ('[^']*')\)",
     r"messages[\1]：角色为 'tool' 的消息，必须回应它前面带 'tool_calls' 的消息"
     r"（tool_call_id \2）"),
    (r"an assistant message with 'tool_calls' must be followed by tool messages "
     r"responding to each 'tool_call_id'; missing: ",
     "带 'tool_calls' 的助手消息后面，必须有逐一回应每个 'tool_call_id' 的工具消息；"
     "缺少："),
    (r"messages\[(\d+)\]: role must be system, user, assistant or tool, got ",
     r"messages[\1]：role 必须是 system、user、assistant 或 tool，得到的是 "),
    (r"\.? The provider rejected the request itself: check the messages sent "
     r"\(e\.g\. a tool result without its call\)",
     "。模型服务拒绝了请求本身：请检查发出的消息（例如缺了调用的工具结果）"),
)


def in_chinese(message: str) -> str:
    """`message` retold in Chinese if a pattern knows it, else as it was."""
    for english, chinese in PATTERNS:
        if re.fullmatch(english, message):
            return re.sub(english, chinese, message)
    for english, chinese in REJECTED:  # a refusal and its reason: each part in turn
        message = re.sub(english, chinese, message)
    return message


__all__ = ["in_chinese"]
