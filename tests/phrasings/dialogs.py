"""Twelve-turn dialogs for the compression ratios, statements mixed with lookups.

`DEV` was used while tuning; `HOLD_OUT` was written at the same time and only played
at the end (`python scripts/phrasing_sweep.py --ratios`). Neither is the course's.
"""

DEV = {
    "en": ("Hi, has order 55107 shipped yet? I'm only home after 7 pm on weekdays.",
           "I'd like to return it: the strap snapped after two days.",
           "Please reach me by email, don't call my phone.",
           "How long does the refund take?",
           "What's the price of the AirX?",
           "If I buy another band, I can spend 600 yuan at most.",
           "Compare the S10 Lite and the S10 Pro.",
           "Where is my order 90417?",
           "Leave it with the concierge if I'm out.",
           "Any discounts at the moment?",
           "Who pays the return shipping?",
           "What was my refund number again?"),
    "zh": ("订单 55107 发货了吗？我工作日晚上七点以后才在家。",
           "我想退货：表带戴了两天就断了。",
           "请发邮件联系我，别打我电话。",
           "退款要多久？",
           "AirX 多少钱？",
           "要是再买一个手环，我最多花600元。",
           "对比一下 S10 Lite 和 S10 Pro",
           "我的订单 90417 到哪了？",
           "我不在家的话就交给门卫。",
           "现在有优惠活动吗？",
           "退货运费谁出？",
           "刚才那个退款编号是多少来着？"),
}
HOLD_OUT = {
    "en": ("Can you check where order 61554 is?",
           "My budget for a new vacuum is 2800 yuan.",
           "I want my money back for 90417 because the right earbud keeps "
           "disconnecting.",
           "Text me rather than phoning, I'm in meetings all day.",
           "Do you have any new models to suggest?",
           "What does the S20 Max cost?",
           "Saturday mornings are the only time I can receive parcels.",
           "When will my refund arrive?",
           "Is order 73820 on its way?",
           "Is there a warranty on vacuums?",
           "I'd rather not get a model with a mop.",
           "Remind me of the tracking number, please."),
    "zh": ("订单 61554 现在到哪了？",
           "新扫地机我的预算是2800元。",
           "90417 我要退钱，因为右耳老是断开连接。",
           "发短信给我，别打电话，我整天开会。",
           "有什么新款可以推荐吗？",
           "S20 Max 多少钱？",
           "我只有周六上午能收快递。",
           "退款什么时候到账？",
           "订单 73820 发货了吗？",
           "扫地机保修多久？",
           "我不想要带拖地功能的型号。",
           "再说一下我的快递单号。"),
}
