"""The words that say what a customer's statement is about, in English and Chinese.

Used by forms.py (notebook 04: what a summary keeps). A statement is found by its
form (forms.py); these words only say which kind it is: a delivery rule, a contact
channel, a budget, the reason something goes back, a preference, or the agent's
promise. A strong word makes its kind ("deliver", "email", "at most ¥500"); a weak
one ("7 pm", "won't") only when no kind has a strong one. They are the words anyone
uses for these things, never a dialog's or a store's. Left out: negation ("I don't
mind calls" reads as a contact rule, which it is) and spelling mistakes.
"""

from __future__ import annotations

import re


def words(english: str, chinese: str) -> re.Pattern[str]:
    """One pattern for a kind's English (whole words) and Chinese words."""
    return re.compile(rf"\b(?:{english})\b|{chinese}", re.I)


# An amount of money: a currency, or a bare number of 2 to 4 digits that no unit of
# time, count or place follows ("1,800", not "8:30", "24 hours", "12th", "6th floor").
# (Lookarounds name ASCII letters: a Chinese character is a word character too.)
MONEY = (r"(?:[¥$]\s?\d[\d,.]*|\d[\d,.]*\s?(?:k\b|yuan\b|rmb\b|dollars?\b|块|元)"
         r"|(?<![\d:.,])\d{1,2},\d{3}(?![\d,])"
         r"|(?<![\dA-Za-z_:.,–-])\d{2,4}(?![\dA-Za-z_:.,–-]|\s?(?:[ap]m\b|%|点|号|楼|小时|天|分|个|"
         r"th\b|st\b|nd\b|rd\b|hours?\b|days?\b|minutes?\b|floors?\b|years?\b|"
         r"months?\b|weeks?\b|times?\b|pairs?\b|units?\b)))")
AMOUNT = re.compile(MONEY, re.I)
LIMIT = words(r"budget|afford|spend|spending|limit|cap|at most|up to|under|below|"
              r"less than|more than|no more|not more|above|over|max(?:imum)?|the most|"
              r"tops|reimburses?|set aside|drops? to|within|or less",
              r"预算|以内|以下|以上|超过|最多|顶多|上限|封顶|出|花|付|报销|留了|降到|拿出|左右")
STRONG = {  # kind -> the words that make it
    "delivery": words(
        r"deliver\w*|ship(?:s|ping|ped)?|courier|"
        r"drop (?:it|them|(?:the )?[\w-]+(?: [\w-]+)?) (?:off|at)|"
        r"(?:put|place|leave) (?:it|them|(?:the )?[\w-]+) (?:in|at|on|behind|under|by|"
        r"with|outside|inside|next to|in front of)|"
        r"leave (?:it|them|the \w+|\w+ \w+) (?:with|at|in|outside|by)|"
        r"doorstep|(?:front|back|side) door|door ?bell|reception|front desk|concierge|"
        r"neighbou?rs?|parcel locker|locker|collect(?:ion)?|depot|"
        r"pick(?:ed)? (?:it |them )?up(?: (?:it|them|the|from|at))?(?! \w+ numbers)|"
        r"address|porter|doorman|guard|mailbox|hand (?:it|them|the \w+) to|"
        r"send (?:it|them|the [\w-]+) to|"
        r"parcels?|packages?|receive|arrive",
        r"送货|配送|派送|送到|(?<![赠相])送(?![给礼人])|上门|快递员|收货|收快递|放在|放到|门口|门外"
        r"|快递柜|丰巢|驿站|前台|代收|自提|门卫|寄到|地址|改送|网点|发货|包裹|下来拿"),
    "contact": words(
        r"e-?mails?|phone(?:s|d|ing)?(?! (?!calls?|number)\w)(?<!(?:her|his) phone)|"
        r"phone (?:calls?|number)|call(?:s|ing)?|ring (?:me|my|the) (?:phone|mobile|"
        r"landline|number)|ring me|text(?:s|ing)?|sms|wechat|whatsapp|"
        r"telegram|qq|contact|reach(?:ed)?|message me|get in touch|voicemail|"
        r"landline|mobile|chat|written reply|in writing",
        r"邮件|邮箱|电话|短信|微信|联系|打给我|QQ|钉钉|座机|留言|语音|在线客服|书面|沟通|消息"),
    "budget": words(r"budget|afford|spend(?:ing)?(?: cap)?|reimburses?|set aside|"
                    r"too (?:much|expensive|pricey)",
                    r"预算|上限|封顶|太贵|报销"),
    "reason": words(
        r"error|broken|broke|break|defect\w*|fault\w*|damaged?|cracked|cracks|"
        r"crackles?|snapped|scratch\w*|fell off|falls off|leaks?|leaking|squeak\w*|"
        r"beeps?|beeping|flicker\w*|overheat\w*|gets? hot|loses|losing|lost|"
        r"disconnect\w*|cuts? out|drops? out|rattl\w*|not working|stopped \w+ing|"
        r"stopped|doesn'?t work|does not work|won'?t (?!be\b)\w+|dies|died|dead|"
        r"malfunction\w*|crash\w*|freez\w*|reboots?|restarts? (?:itself|on its own)|"
        r"wrong (?:model|size|colou?r|item|one)|by mistake|missing|"
        r"way off|inaccurate|too (?:small|big|large|loud|weak)|gone weak|"
        r"doesn'?t fit|(?:shows?|showing|displays?|flashing|blinking)\s+"
        r"(?:code\s+)?[A-Z]{1,2}-?\d{1,4}",
        r"坏|故障|报错|错误|不工作|不能用|用不了|失灵|质量问题|破损|损坏|不回充|充不进|充不上"
        r"|开不了机|碎|裂|没(?:声音|反应|电)|变弱|变差|变小|不好用|出问题|有问题|异味|发烫"
        r"|漏电|漏水|杂音|异响|噪音|断|掉了|刮花|划痕|闪|滴滴响|吱吱响|连不上|合不上|关不上"
        r"|打不开|弄丢|拍错|买错|发错|不准|卡住|不想要了|不合适|太小|太大|找不到"
        r"|死机|重启|闪退|自己启动"),
    "prefers": words(
        r"prefer\w*|rather|i (?:like|love|hate|want only)|only (?:buy|want|use|"
        r"consider)|interest(?:s|ed)? me|(?:don'?t|do not) (?:want|like|need|"
        r"include|send|add)|avoid|without|not interested|favou?r\w*|suits? me|"
        r"skip|should be|gift-?wrap\w*|"
        r"no (?!problem|worries|thanks|thank|more|longer|later|earlier|less)\w+",
        r"喜欢|偏好|更想|宁愿|宁可|只要|只买|只用|只考虑|品牌|不要|不想|不需要|讨厌|避免|无需"
        r"|不感兴趣|看重|无所谓|更合适|偏向|一律|不用|最好"
        r"|^(?:要|想要)[^，。]{1,6}的|(?:推荐|找)[^，。]{1,8}的"),
}
WEAK = {
    "delivery": words(
        r"\d{1,2}(?::\d\d)?\s?(?:am|pm)|o'?clock|mornings?|afternoons?|evenings?|"
        r"tonight|nights?|noon|lunchtime|weekends?|weekdays?|at work|at home|home|"
        r"away|(?:i'm|i am|we're|we are) out|until the \d+\w*|"
        r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|"
        r"\d+(?:st|nd|rd|th) floor|lift|elevator|stairs|road|street|avenue",
        r"上午|下午|晚上|早上|中午|周末|周[一二三四五六日天]|星期|工作日|\d+\s?点"
        r"|(?:[二三四五六七八九两]|十[一二]?)点|(?<=[午上晚早])一点|一点(?=[前后到半钟])|上班|在家|不在家|家里(?:没|有)人|号之前|号以后"
        r"|\d+楼|[一二三四五六七八九十]+楼|电梯|路|街|小区|单元"),
    "reason": words(
        r"won'?t|doesn'?t|does not|can'?t|cannot|isn'?t|keeps|noisy|noise|loud|"
        r"stuck|fails?|failed|wrong|weak(?:er)?|drains?|smells?|"
        r"problem with|issue with|every (?:few |other )?\w+|always",
        r"无法|没法|不(?:回|充|转|亮|吸|动|开|响|灵)|(?:回|充|开|用)不了|一直|总是|老是"
        r"|显示|每隔|每次"),
    # a wish said as a request: "please, …", "要…"
    "prefers": words(r"want|would like|'d like|please",
                     r"^(?:要|想要|需要)"),
}
# The agent promises: a first person or a team, a future, and a thing done.
PROMISE = re.compile(
    r"\b(?:i|we|someone|(?:our|a|an|the) (?:[\w-]+ ){0,2}[\w-]+)\s*(?:will|'ll|shall)"
    r"\s+[^.!?]{0,50}?\b(?:call|phone|"
    r"ring|e-?mail|text|message|contact|reply|get back|follow up|send|check|"
    r"arrange|update|collect|book|deliver|notify|let you know|confirm|look into)\b"
    r"|^(?=.*(?:我|我们|同事|客服|售后|专员|专人|团队|技术人员|快递|物流|师傅))"
    r"(?=.*(?:会|将|稍后|尽快|马上|今天|今晚|明天|\d+\s?(?:小时|天|个工作日)内|[一两三]天内"
    r"|(?:点|午|晚|天|号|下班|周[一二三四五六日天])前|去(?:问|查|确认|核实|联系)"
    r"|一[^。！？]{1,8}就))"
    r".*(?:回电|打电话|致电|联系|回复|跟进|发|安排|通知|告诉|确认|核对|寄|取件)",
    re.I)
