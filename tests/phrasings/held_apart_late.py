"""Held apart, second batch: written after the first batch had been measured (and
its misses fixed), played only once, at the very end (see __init__.py)."""

PHRASINGS = {
    "en": {
        "delivery": [
            ("Tuesdays between 3 and 6 work best for me.", "3 and 6"),
            ("Put the box behind the garden gate if nobody answers.", "garden gate"),
            ("I'll be at my cousin's in Wuxi next week, ship it there.", "Wuxi"),
        ],
        "contact": [
            ("Please use SMS only, my inbox is full of spam.", "SMS"),
            ("Don't call before 9 in the morning.", "before 9"),
            ("My colleague Zhang can take calls for me.", "Zhang"),
        ],
        "budget": [
            ("Anything under 250 for the strap is fine.", "250"),
            ("I'd pay up to ¥1,200 if it has a mop.", "1,200"),
            ("The limit my wife agreed to is 2,600 yuan.", "2,600"),
        ],
        "reason": [
            ("Return 88231 please: it bumps into the walls all the time.",
             "bumps into the walls"),
            ("The band's clasp came loose on day two, so I want my money back.",
             "clasp"),
            ("I'm sending the AirX back because the left bud hisses.", "hisses"),
        ],
        "prefers": [
            ("I'd rather not have anything that needs an app.", "app"),
            ("Only grey models, please.", "grey"),
            ("Avoid anything heavier than 3 kg.", "3 kg"),
        ],
        "promise": [
            ("I'll ask the warehouse and email you by noon.", "warehouse"),
            ("We will send a replacement charger within 3 days.", "charger"),
            ("Our courier partner will call you to book the pickup.", "pickup"),
        ],
        "note": [
            ("My son set up the account for me.", "son"),
            ("We just moved into a bigger flat.", "bigger flat"),
            ("I use the vacuum mainly for pet hair.", "pet hair"),
        ],
    },
    "zh": {
        "delivery": [
            ("周二下午三点到六点最方便。", "三点到六点"),
            ("没人应门的话放在花园门后面。", "花园门"),
            ("下周我在无锡表哥家，寄到那边吧。", "无锡"),
        ],
        "contact": [
            ("只发短信，我的邮箱全是垃圾邮件。", "短信"),
            ("早上九点前别打电话。", "九点前"),
            ("我同事小张可以帮我接电话。", "小张"),
        ],
        "budget": [
            ("表带的话250以内都行。", "250"),
            ("要是带拖地功能，我最多出1200。", "1200"),
            ("老婆同意的上限是2600元。", "2600"),
        ],
        "reason": [
            ("88231 退了吧：它老是撞墙。", "撞墙"),
            ("手环的表扣第二天就松了，我要退钱。", "表扣"),
            ("我要把 AirX 退回去，因为左耳有嘶嘶声。", "嘶嘶声"),
        ],
        "prefers": [
            ("需要装 App 的我都不想要。", "App"),
            ("只要灰色的。", "灰色"),
            ("别推荐超过3公斤的。", "3公斤"),
        ],
        "promise": [
            ("我去问一下仓库，中午前给您发邮件。", "仓库"),
            ("我们会在3天内寄出新的充电器。", "充电器"),
            ("合作快递会打电话跟您约取件时间。", "取件"),
        ],
        "note": [
            ("账号是我儿子帮我注册的。", "儿子"),
            ("我们刚搬进一套更大的房子。", "更大的房子"),
            ("扫地机主要用来吸宠物毛。", "宠物毛"),
        ],
    },
}
