"""Held apart: never played while the rules were tuned (see __init__.py)."""

PHRASINGS = {
    "en": {
        "delivery": [
            ("Weekday lunchtime, around 12 to 1, is when someone's home.", "12 to 1"),
            ("Hand the BandPro to the front desk of the gym where I work.",
             "front desk"),
            ("If it can't come on Friday, hold it at the depot.", "depot"),
            ("Deliveries go to my sister's address in Suzhou this month.", "Suzhou"),
        ],
        "contact": [
            ("Leave me a voicemail if I miss your call.", "voicemail"),
            ("No marketing calls please, only about the refund.", "marketing"),
            ("Contact my assistant Lin for anything about 73820.", "Lin"),
            ("A text on my mobile is the only way I'll see it.", "text"),
        ],
        "budget": [
            ("I can put in 900 yuan, no more.", "900"),
            ("Around ¥2200 is the most I'd pay for the Max.", "2200"),
            ("Should the price stay above 450, I'll skip the earbuds.", "450"),
            ("My spending cap this quarter is 5000 yuan.", "5000"),
        ],
        "reason": [
            ("Take back 55107: the heart-rate readings are way off.", "heart-rate"),
            ("I'm returning the S20 Pro because the mop pad leaks water.", "leaks"),
            ("The AirX charging case gets hot while charging, I want to return it.",
             "hot"),
            ("Refund 61554 please, the wheel squeaks on every turn.", "squeaks"),
        ],
        "prefers": [
            ("A smaller vacuum suits me better, my flat is tiny.", "smaller"),
            ("Skip the mop attachment when you suggest a vacuum.", "mop"),
            ("Please no plastic packaging.", "plastic"),
            ("I favour the Pro line over the Lite.", "Pro line"),
        ],
        "promise": [
            ("I'll get back to you with the courier's name this afternoon.",
             "courier's name"),
            ("We'll send the invoice to your email tonight.", "invoice"),
            ("Our team will check the serial number and reply tomorrow.",
             "serial number"),
            ("A specialist will contact you to arrange the pickup on Saturday.",
             "Saturday"),
        ],
        "note": [
            ("The order was placed by my wife on her phone.", "wife"),
            ("I'm travelling for work most of July.", "July"),
            ("We have two dogs that shed a lot.", "dogs"),
            ("The earbuds are mainly for running.", "running"),
        ],
    },
    "zh": {
        "delivery": [
            ("中午十二点到一点家里有人。", "十二点到一点"),
            ("耳机送到我上班的健身房前台。", "健身房"),
            ("周五送不了的话，就先放在网点。", "网点"),
            ("这个月的包裹都寄到我姐姐在苏州的地址。", "苏州"),
        ],
        "contact": [
            ("没接到电话的话给我留个语音信箱。", "语音信箱"),
            ("别给我打推销电话，只聊退款的事。", "推销"),
            ("73820 的事请联系我的助理小林。", "小林"),
            ("只有发到手机上的短信我才看得到。", "短信"),
        ],
        "budget": [
            ("我能拿出900块，再多就不行了。", "900"),
            ("S20 Max 我最多付2200左右。", "2200"),
            ("耳机价格要是还在450以上，我就不买了。", "450"),
            ("这个季度我的消费上限是5000元。", "5000"),
        ],
        "reason": [
            ("55107 退了吧：心率测得一点都不准。", "心率"),
            ("S20 Pro 我要退，因为拖布一直漏水。", "漏水"),
            ("AirX 的充电盒充电时发烫，我想退掉。", "发烫"),
            ("61554 退款，轮子一转弯就吱吱响。", "吱吱响"),
        ],
        "prefers": [
            ("我家小，小一点的扫地机更合适。", "小一点"),
            ("推荐扫地机的时候别带拖地配件。", "拖地"),
            ("请不要用塑料包装。", "塑料"),
            ("比起 Lite 我更偏向 Pro 系列。", "Pro 系列"),
        ],
        "promise": [
            ("今天下午我会把快递员的名字告诉您。", "快递员"),
            ("我们今晚会把发票发到您的邮箱。", "发票"),
            ("我们团队会核对序列号，明天回复您。", "序列号"),
            ("专员会联系您，约周六上门取件。", "周六"),
        ],
        "note": [
            ("这单是我老婆用她手机下的。", "老婆"),
            ("七月大部分时间我都在外地出差。", "出差"),
            ("我们养了两条很掉毛的狗。", "狗"),
            ("耳机主要是跑步时用。", "跑步"),
        ],
    },
}
