#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Generate bench/data/zh_chat.json, the Chinese multi-session chat retrieval benchmark.

All dialogue and question text in this file is original, written for the chatmem
project (same licence as the project). Nothing is copied from an existing dataset.

Usage:
    python3 bench/data/make_zh_chat.py          # writes bench/data/zh_chat.json

Mini format used for each session's ``text``:
    @2026-03-02 09:05     set the clock (date + time) for the next message
    @11:40                set the clock on the same day
    key: content          a message by speaker ``key`` ("bot" = the assistant);
                          messages without a preceding "@" line are placed a few
                          minutes (deterministic pseudo-random) after the previous one
    ... content #label    trailing " #label" (lowercase ascii) names the message so
                          questions can refer to it; the label is stripped from content
    "@名字" inside content is turned into a ``mentions`` entry (speaker id).
"""
import json
import random
import re
from datetime import datetime, timedelta
from pathlib import Path

OUT = Path(__file__).with_name("zh_chat.json")
TZ = "+08:00"
BOT_ID = "bot"
BOT_NAME = "小助手"
QTYPES = {"paraphrase", "lexical", "temporal", "multi_hop", "update"}

_TIME_RE = re.compile(r"^@(?:(\d{4})-(\d{2})-(\d{2}) )?(\d{2}):(\d{2})$")
_LABEL_RE = re.compile(r"\s+#([a-z][a-z0-9_]*)$")
_LINE_RE = re.compile(r"^([a-z0-9_]+): ?(.*)$")

CONVERSATIONS = []


class Conv:
    def __init__(self, cid, speakers):
        self.cid = cid
        self.people = {}  # key -> (id, name)
        for key, name in speakers:
            self.people[key] = ("u_" + key, name)
        self.people["bot"] = (BOT_ID, BOT_NAME)
        self.sessions = []
        self.labels = {}
        self.questions = []
        # longest names first so "@小助手" etc. match greedily
        self._names = sorted(((n, i) for i, n in self.people.values()), key=lambda x: -len(x[0]))
        CONVERSATIONS.append(self)

    def _mentions(self, content):
        found = []
        for name, pid in self._names:
            if "@" + name in content and pid not in found:
                found.append(pid)
        # keep order of appearance
        return sorted(found, key=lambda pid: content.index("@" + self._name_of(pid)))

    def _name_of(self, pid):
        for i, n in self.people.values():
            if i == pid:
                return n
        raise KeyError(pid)

    def session(self, suffix, platform, chat_type, text, group_id=None, group_name=None):
        sid = f"{self.cid}-{suffix}"
        rng = random.Random(sid)
        cur = None
        fixed = False
        msgs = []
        for raw in text.strip().splitlines():
            line = raw.strip()
            if not line:
                continue
            m = _TIME_RE.match(line)
            if m:
                y, mo, d, hh, mm = m.groups()
                if y:
                    new = datetime(int(y), int(mo), int(d), int(hh), int(mm))
                else:
                    new = cur.replace(hour=int(hh), minute=int(mm), second=0)
                new += timedelta(seconds=rng.randint(0, 40))
                if cur is not None and new <= cur:
                    raise ValueError(f"{sid}: time goes backwards at {line}")
                cur = new
                fixed = True
                continue
            m = _LINE_RE.match(line)
            if not m:
                raise ValueError(f"{sid}: bad line {line!r}")
            key, content = m.groups()
            if key not in self.people:
                raise KeyError(f"{sid}: unknown speaker {key}")
            label = None
            lm = _LABEL_RE.search(content)
            if lm:
                label = lm.group(1)
                content = content[: lm.start()].rstrip()
            if cur is None:
                raise ValueError(f"{sid}: message before first @time")
            if not fixed:
                cur += timedelta(seconds=rng.randint(25, 200))
            fixed = False
            pid, pname = self.people[key]
            mid = f"{sid}-{len(msgs) + 1:03d}"
            msg = {
                "id": mid,
                "ts": cur.strftime("%Y-%m-%dT%H:%M:%S") + TZ,
                "role": "assistant" if key == "bot" else "user",
                "speaker_id": pid,
                "speaker_name": pname,
                "content": content,
                "mentions": self._mentions(content),
            }
            msgs.append(msg)
            if label:
                if label in self.labels:
                    raise ValueError(f"{self.cid}: duplicate label {label}")
                self.labels[label] = mid
        sess = {"id": sid, "platform": platform, "chat_type": chat_type}
        if chat_type == "group":
            sess["group_id"] = group_id
            sess["group_name"] = group_name
        sess["messages"] = msgs
        self.sessions.append(sess)

    def q(self, asker, session_suffix, question, golds, qtype):
        if qtype not in QTYPES:
            raise ValueError(qtype)
        self.questions.append((asker, session_suffix, question, golds, qtype))

    def to_json(self):
        speakers = [{"id": i, "name": n} for k, (i, n) in self.people.items() if k != "bot"]
        speakers.append({"id": BOT_ID, "name": BOT_NAME})
        return {"id": self.cid, "speakers": speakers, "sessions": self.sessions}


# ---------------------------------------------------------------------------
# zh01 — 工作项目群（App 版本迭代）+ 同事干饭群
# ---------------------------------------------------------------------------
c = Conv("zh01", [("wang", "王浩"), ("chen", "陈晓雯"), ("liu", "刘洋"), ("zhao", "赵敏"), ("sun", "孙鹏")])

c.session("g1", "qq", "group", group_id="g1", group_name="青柠App项目组", text="""
@2026-03-02 09:05
wang: 各位早，青柠App 3.2 今天正式开工，需求文档晚点传群文件
chen: 收到收到👌
liu: 收到，后端先把接口清单过一遍
sun: 来了来了，PRD一出来我就开始写用例
wang: 先定个节奏：3月20号提测，3月27号上线 #release_v1
zhao: 打工人们早上好[太阳] 楼下瑞幸今天买一送一
chen: 赵姐的消息永远最及时hhh
@11:40
wang: PRD已经传到群文件了，重点看第4章会员积分那块
liu: 积分要跟老系统打通吗？老积分表结构乱得一批
wang: 要打通，鼎盛物流就是冲着积分兑换来签的
chen: 鼎盛是上个月新签的那家客户？
wang: 对，对接人是他们信息部的周经理，只看微信不看邮件，有事直接微信找他 #client_contact
sun: 好的，记住了，只发微信
@2026-03-03 10:02
wang: @小助手 记一下站会：每周一上午十点，会议室B #standup_v1
bot: 好的，已记录。需要每次提前十分钟在群里提醒吗？
wang: 要的，谢谢
@2026-03-05 16:30
liu: 测试环境搭好了，在 test2 那台机器上，账号统一找我开 #testenv
liu: 登录密码提示：项目拼音首字母+今年年份，别再私聊问我了😂 #pwd_hint
sun: 懂了懂了，我试试
sun: 进去了，6666
@2026-03-09 10:20
sun: 报个bug：iOS 17 上登录页点“微信登录”直接闪退，安卓正常 #ios_crash
chen: 我看看，八成是SDK版本的锅
chen: @孙鹏 哪个机型复现的？
sun: iPhone 13，系统17.3，必现
@15:45
chen: 闪退修好了，微信SDK升到2.0.4就行，@孙鹏 帮忙回归一下 #crash_fix
sun: 回归通过✅ 晓雯yyds
@2026-03-11 14:00
zhao: 提醒一下：Q1费用报销单下周三（3月18号）下午五点前交给我，过了就只能等下季度了 #expense_deadline
liu: 打车票也能报吗
zhao: 加班打车可以报，但只限晚上九点以后上车的 #taxi_rule
chen: 好嘞，我去翻翻发票
@2026-03-12 11:10
wang: 坏消息，鼎盛要加一个“积分转赠”功能，提测往后推一周，上线改到4月3号 #release_v2
liu: 啊这……又要加班了
chen: 又加需求[裂开]
sun: 那我用例也得补一大块
wang: 辛苦了，这个客户很关键，周经理说做完合同续两年
wang: 排期我重新捋了一下：转赠功能后端三天、前端两天、联调一天，测试至少得留四天，中间还夹着清明假期，所以只能往后推，这个锅我来背，大家对排期有意见随时私聊我，别憋着。周经理那边我去同步，你们不用单独解释
@2026-03-16 09:50
wang: 通知：从这周开始站会改到每周二下午两点，会议室不变 #standup_v2
bot: 收到，提醒已经同步改好了👌
liu: 周一终于可以睡个懒觉了
@2026-03-18 16:20
liu: @赵敏 报销单放你桌上了，发票贴在背面
zhao: 收到，就差孙鹏的了 @孙鹏
sun: 马上马上，发票找不着了🥲
zhao: 四点五十九分前给我就行[微笑]
@2026-03-20 20:40
chen: 积分转赠页面写完了，设计稿里那个金色按钮我换成了品牌橙，色值 #FF7A1A #brand_color
wang: 👍 周经理也说橙色更显眼
@2026-03-24 10:05
liu: 转赠接口有个问题：同一个用户一天最多能转几次？PRD里没写
wang: 先按每天最多5次、单次不超过2000积分来做 #transfer_limit
liu: OK，我做成配置项，后面改起来方便
@2026-03-26 18:30
wang: 同步一下：鼎盛法务审合同太慢，上线再往后挪到4月8号 #release_v3
sun: 好耶，多几天测试时间
chen: 这个版本是不是被诅咒了😂
@2026-03-31 16:00
wang: 最终敲定：4月8号周三晚上十点发版，当晚大家留一下，夜宵我请 #release_final
chen: 夜宵要烧烤！
liu: 附议，就望京那家老地方
bot: 好的，发版当天晚上我会提前二十分钟在群里提醒大家准备。
@2026-04-07 15:10
sun: 回归测试全部跑完了，剩两个P3的小问题，不影响发版
wang: 好，P3的放到3.2.1再修
@2026-04-08 21:40
bot: 发版提醒：@王浩 @刘洋 @陈晓雯 @孙鹏 各位准备一下
liu: 数据库已经备份好了
@22:35
sun: 发版完成，线上冒烟通过🎉
wang: 辛苦各位！烧烤到楼下了，下来拿
chen: 冲冲冲冲冲
@2026-04-09 10:00
wang: 复盘会定在下周一下午三点，每人准备三条问题 #retro
liu: 第一条：需求变更太多[狗头]
wang: 哈哈哈这条我先认了
""")

c.session("g2", "qq", "group", group_id="g2", group_name="干饭小分队", text="""
@2026-03-04 11:45
zhao: 中午吃啥？楼下新开了家云南过桥米线
chen: 冲！等我关个电脑
liu: 我带饭了，最近在减肥
sun: 刘洋又减肥，这是今年第几次了😂
liu: 第N+1次，这次是认真的
@2026-03-10 14:30
wang: 下午我请喝奶茶，要喝的报名
chen: 本来想要杨枝甘露，但我对芒果过敏，换成芋泥波波吧 #chen_allergy
sun: 霸王茶姬伯牙绝弦，少糖少冰
liu: 我不喝了，戒糖中
wang: 你这次是真的认真了啊
zhao: 我要一杯热的柠檬水，嗓子疼
@2026-03-13 12:10
sun: 给你们看我家柯基馒头，昨天刚剪了毛[图片] #sun_dog
chen: 啊啊啊这个小屁屁awsl
zhao: 太可爱了吧，几岁了
sun: 两岁半，特别能吃，兽医说它超重了
@2026-03-17 11:55
wang: 中午谁跟我去吃那家潮汕牛肉火锅？
chen: 我我我！带我一个
wang: 先说好，我不吃香菜，锅里蘸料里都别给我放 #wang_cilantro
liu: 我去，但我只涮青菜
sun: 刘洋你这样会被牛肉火锅店拉黑的
@2026-03-19 17:40
zhao: 团建定了！4月11号周六去怀柔雁栖湖，早上八点大巴从公司楼下出发 #teambuild
chen: 要带什么东西吗
zhao: 穿运动鞋就行，下午有徒步，午饭在湖边农家院
sun: 能带狗吗[可怜]
zhao: 不能[微笑]
@2026-03-25 12:00
zhao: 想带家属去团建的接龙一下：家属费用公司出一半，自己出一半，每人180 #family_cost
wang: 我带我老婆，接龙了
sun: 我一个人去，馒头不让带😭
@2026-04-11 19:30
chen: 今天雁栖湖拍的照片都传群相册了📷
sun: 我那张闭眼了，求删[捂脸]
liu: 徒步走了两万三千步，今天不用去健身房了
zhao: 农家院的铁锅炖太香了，下次还去
@2026-04-14 11:50
zhao: 下周三我过生日，请大家吃蛋糕，有没有不吃奶油的？ #zhao_bday
chen: 我都行，只要不是芒果味的😂
wang: 我也都行，谢谢赵姐
liu: 我就吃一小口[狗头]
sun: 我能吃两块，替刘洋吃了
""")

c.session("p-wang", "qq", "private", text="""
@2026-03-06 22:10
wang: 帮我记一下，给鼎盛的报价是18.5万，不含税，含一年维护 #quote_v1
bot: 好的，记住了。合同发出前要我提醒你核对一下吗？
wang: 先不用，记着就行
@2026-03-12 12:40
wang: 鼎盛加了积分转赠，报价要在原来基础上加3万 #quote_v2
bot: 明白，那现在总价是21.5万，不含税。
wang: 对，先这样
@2026-03-14 21:00
wang: 周末想给我爸买生日礼物，他平时就爱喝茶，有啥推荐
bot: 可以看看岩茶或者紫砂壶，预算大概多少？
wang: 一千以内吧，我爸生日是3月22号 #wang_dad_bday
bot: 那挑一盒两百克左右的正岩大红袍挺合适，再配个小茶宠。
wang: 就它了，明年这个时候也提醒我一下
bot: 好的，明年3月中旬提醒你准备礼物。
@2026-03-24 09:00
wang: 我爸说大红袍挺好喝，这次算是送对了哈哈 #dad_gift
bot: 太好了！叔叔喜欢就好😊
@2026-03-27 20:15
wang: 跟周经理谈完了，总价在21.5万的基础上打九五折，就这么定了
bot: 好的，鼎盛的合同价按九五折算是20.425万元，不含税，已经更新。 #quote_final
wang: 嗯，比预期少一点，但能续两年也值
@2026-03-28 23:30
wang: 最近天天加班，躺下了也睡不着
bot: 辛苦了，要不要试试睡前半小时不看手机？
wang: 做不到啊[捂脸]
wang: 我家在朝阳区望京这边，附近有没有开到很晚的药店 #wang_home
bot: 可以在美团买药上搜24小时药店，望京一带应该有好几家。
@2026-04-02 19:00
wang: 下周三晚上发版，帮我列一下发版前要检查的东西
bot: 1.回归测试通过 2.数据库备份 3.灰度开关检查 4.回滚方案就位 5.通知客服
wang: 再加一条：提前给鼎盛的周经理打个招呼 #checklist_add
bot: 已加上，现在一共6条。
@2026-04-09 09:10
wang: 发版很顺利，谢谢你的清单
bot: 不客气！今晚早点睡，好好补个觉吧😴
""")

c.session("p-chen", "qq", "private", text="""
@2026-03-07 13:20
chen: 小助手在吗
bot: 在的，晓雯有什么事？
chen: 帮我记一下，我的工位从5楼搬到7楼715了，快递地址得改 #chen_desk
bot: 好的。需要提醒你去哪些平台改地址吗？
chen: 淘宝和京东就行
@2026-03-08 21:40
chen: 我家猫年糕今天又把水杯推地上了😤 #chen_cat
bot: 哈哈，猫咪的天性。年糕是什么品种呀？
chen: 英短蓝白，三岁了，天天拆家
@2026-03-12 22:05
chen: Figma团队账号的密码提示存你这儿：猫的名字拼音+工号后四位 #figma_hint
bot: 好的，我只存提示不存密码，放心。
@2026-03-20 08:30
chen: 今天请假去医院复查过敏原
bot: 好的，祝一切顺利。
@18:10
chen: 结果出来了，还查出来对猕猴桃轻微过敏 #chen_allergy2
bot: 记下了，以后帮你点东西会注意避开。
chen: 谢谢小助手🙏
@2026-03-22 15:00
chen: 周末在学Three.js，有没有靠谱的入门教程
bot: 官方文档的examples很适合边看边改，也可以看看Bruno Simon的Three.js Journey。
chen: 那个课多少钱
bot: 具体价格我不确定，建议去官网看一下最新的。
@2026-04-05 20:30
chen: 清明在家撸猫，年糕又胖了一斤
bot: 哈哈，冬天养的膘还没掉
@2026-04-15 21:00
chen: 我五一去大理，帮我记着：4月30号晚上八点的航班，从大兴机场走 #chen_trip
bot: 好的，前一天提醒你值机。
chen: 年糕寄养在孙鹏家，不知道他家柯基会不会欺负它😂 #cat_boarding
bot: 柯基一般挺友好的，可能会追着猫玩，建议提前让它俩见个面。
@2026-04-28 22:00
chen: 大理民宿订好了，在古城附近，一晚380 #dali_hotel
bot: 价格挺合适的，记得带防晒！大理海拔接近两千米，紫外线很强，帽子和墨镜也别忘了；早晚温差大，晚上逛古城最好带件薄外套，另外洱海边骑行的话提前看好天气预报。
""")

c.session("web", "webui", "private", text="""
@2026-03-03 21:00
liu: 你好，我是后端的刘洋
bot: 你好刘洋！有什么可以帮你？
liu: 记一下，我生日是4月12号，到时候提醒我给自己订个蛋糕 #liu_bday
bot: 好的，到时候提前一天提醒你🎂
liu: 顺便记个体重，今天78.5公斤，目标72 #liu_weight_v1
bot: 已记录，加油💪
@2026-03-10 22:30
liu: Redis连接池maxTotal一般设多少合适
bot: 看并发量。可以先按“峰值QPS×平均耗时”估算同时占用的连接数，再留足余量。
liu: 我们峰值QPS大概800，平均耗时5毫秒
bot: 那同时占用大约4个连接，上限设到32就很宽裕了。
liu: 好，那连接池上限就先设32 #redis_pool
@2026-03-19 23:10
liu: 帮我算下这个月加班打车：86、54、112、73
bot: 86+54+112+73，这个月加班打车一共325元。 #taxi_sum
liu: 才这点，我还以为得上千了
@2026-03-21 09:00
liu: 住通州真的太远了，单程一个半小时 #liu_home
bot: 确实辛苦，有考虑搬近一点吗？
liu: 望京那边一居室要七千多，租不起 #rent_wj
bot: 可以看看地铁沿线的合租，通勤能省不少时间。
@2026-03-29 08:00
liu: 今天称了76.2，掉了两斤多 #liu_weight_v2
bot: 厉害！照这个速度，两个多月就能到目标了。
@2026-04-16 22:00
liu: 最近在学Rust，想把内部那个日志清洗小工具用Rust重写
bot: 不错！命令行参数可以用clap，读大文件注意用BufReader。
liu: 先立个flag，Rust版五一前写完 #rust_flag
bot: 好，到时候我来检查进度😏
@2026-04-25 23:40
liu: 体重反弹到77了，团建那顿农家菜太香了 #liu_weight_v3
bot: 没事，短期波动很正常，接着坚持就好。
liu: 明天开始晚饭只吃沙拉
""")

c.q("liu", "web", "财务那边要的报账单子，最晚哪天几点交？", ["expense_deadline"], "paraphrase")
c.q("chen", "p-chen", "3.2版本最后定在哪天几点上线？", ["release_final"], "update")
c.q("wang", "p-wang", "现在每周的站会改到星期几几点了？", ["standup_v2"], "update")
c.q("liu", "web", "找甲方那个负责人用什么方式联系最靠谱", ["client_contact"], "paraphrase")
c.q("sun", "g1", "test2 那台机器的账号该找谁要", ["testenv"], "lexical")
c.q("chen", "p-chen", "登测试服用的口令有什么提示来着", ["pwd_hint"], "paraphrase")
c.q("wang", "p-wang", "苹果手机上一点微信登录就崩，这个问题是谁最先发现的", ["ios_crash"], "paraphrase")
c.q("sun", "g1", "修闪退的时候微信SDK升到了哪个版本号", ["crash_fix"], "lexical")
c.q("liu", "web", "晚上加班叫车的钱什么条件下才能报", ["taxi_rule"], "paraphrase")
c.q("wang", "p-wang", "转赠那个按钮换成了什么颜色，色值是多少", ["brand_color"], "lexical")
c.q("liu", "web", "一个人每天能把积分送给别人几次，一次最多送多少", ["transfer_limit"], "paraphrase")
c.q("chen", "p-chen", "发版之后的复盘会安排在什么时候", ["retro"], "lexical")
c.q("chen", "p-chen", "我都对哪些水果过敏？", ["chen_allergy", "chen_allergy2"], "multi_hop")
c.q("chen", "p-chen", "孙鹏家那只狗叫什么名字", ["sun_dog"], "paraphrase")
c.q("chen", "g2", "团建是哪天、去哪儿、几点出发", ["teambuild"], "lexical")
c.q("wang", "p-wang", "家里人跟着去公司出游，自己要掏多少钱", ["family_cost"], "paraphrase")
c.q("liu", "web", "团建那天离我生日还差几天", ["teambuild", "liu_bday"], "multi_hop")
c.q("liu", "web", "赵敏的生日具体是几月几号", ["zhao_bday"], "temporal")
c.q("chen", "p-chen", "王浩吃火锅有什么忌口", ["wang_cilantro"], "paraphrase")
c.q("wang", "p-wang", "跟鼎盛最后谈定的合同价是多少", ["quote_final"], "update")
c.q("wang", "p-wang", "3月初我最早给鼎盛报的价是多少", ["quote_v1"], "temporal")
c.q("wang", "p-wang", "我爸生日是几号？那次送他的是什么茶", ["wang_dad_bday", "dad_gift"], "multi_hop")
c.q("chen", "p-chen", "我现在坐在哪一层哪个工位", ["chen_desk"], "paraphrase")
c.q("chen", "p-chen", "Figma 的密码提示是怎么设的", ["figma_hint"], "lexical")
c.q("chen", "p-chen", "Figma 密码提示里说的那个名字具体是啥", ["figma_hint", "chen_cat"], "multi_hop")
c.q("chen", "p-chen", "五一去云南坐的那趟飞机是几号几点、哪个机场", ["chen_trip"], "paraphrase")
c.q("chen", "p-chen", "我出去玩那几天，猫托付给谁照看了", ["cat_boarding"], "paraphrase")
c.q("chen", "p-chen", "大理住的那家民宿一晚多少钱", ["dali_hotel"], "lexical")
c.q("liu", "web", "Redis 最大连接数当时定的是多少", ["redis_pool"], "paraphrase")
c.q("liu", "web", "三月份晚上加班打车一共花了多少钱", ["taxi_sum"], "lexical")
c.q("liu", "web", "我最近一次记的体重是多少", ["liu_weight_v3"], "update")
c.q("liu", "web", "3月底那次称重是多少公斤", ["liu_weight_v2"], "temporal")
c.q("liu", "web", "我每天上下班路上要花多长时间", ["liu_home"], "paraphrase")
c.q("wang", "p-wang", "上线前的检查单里，我让额外加的那一项是什么", ["checklist_add"], "paraphrase")
c.q("sun", "g1", "3月12号那次上线时间被推到了哪天", ["release_v2"], "temporal")
c.q("liu", "web", "望京租一个一居室大概要多少钱", ["rent_wj"], "lexical")
c.q("wang", "p-wang", "我之前说过我住在哪个区来着", ["wang_home"], "paraphrase")
c.q("liu", "web", "我给自己定的用Rust重写工具的期限是什么时候", ["rust_flag"], "lexical")


# ---------------------------------------------------------------------------
# zh02 — 家庭群（春节回家、年夜饭、长辈健康）
# ---------------------------------------------------------------------------
c = Conv("zh02", [("mom", "张秀兰"), ("dad", "林国强"), ("xiao", "林晓"), ("feng", "林峰"), ("aunt", "张秀梅")])

c.session("g1", "wechat", "group", group_id="g1", group_name="相亲相爱一家人", text="""
@2026-01-05 07:32
mom: 早上好[玫瑰][玫瑰] 今天降温，大家多穿点
aunt: 早上好！成都今天才两度，冷惨了
dad: [强][强][强]
@20:10
mom: 晓晓、峰峰，今年过年几号回来？早点买票哈
xiao: 在抢了妈，12306候补排上了
feng: 我们学校放假晚，估计二月中才能走
mom: 好好好，买到了跟妈说一声
@2026-01-12 21:05
xiao: 票买到了！2月13号的G2193，上海虹桥到成都东，晚上八点四十六到 #xiao_train
dad: 好，那天我开车去东站接你
mom: 太好了[鼓掌][鼓掌]
aunt: 晓晓真厉害，我们家那个还没抢到
@2026-01-15 19:40
mom: 年夜饭我想去外面吃，省得累，老码头川菜馆怎么样 #nye_v1
dad: 可以，他家包间要提前订
aunt: 我们家今年也在外面吃，订了小区门口那家火锅 #aunt_nye
mom: @林国强 那你明天去问问包间
dad: 要得，明天下班就去
@2026-01-16 17:30
dad: 问了，老码头除夕只剩晚上八点那一轮了，包间最低消费2888 #nye_slot
mom: 八点才吃太晚了嘛
xiao: 要不就在家做吧，我回去给你打下手
@2026-01-20 08:15
mom: 想了一下，今年不去馆子了，就在家做，二姨一家也过来一起吃 #nye_v2
aunt: 好啊，那我们火锅也退了，我带两个凉菜过来
feng: 在家吃好，我想吃妈做的粉蒸肉
mom: 没问题[OK]
@2026-01-22 20:00
feng: 跟大家说个事，今年小雨跟我一起回来过年
mom: 哎呀好好好！小雨喜欢吃啥？有没有忌口
feng: 她对花生过敏，很严重那种，菜里千万别放花生，也别用花生油 #xiaoyu_allergy
mom: 记住了，那宫保鸡丁今年就不做了
aunt: 现在娃娃过敏的真多，我们楼上那个小孩鸡蛋都不能吃
@2026-01-25 10:12
mom: @小助手 帮我记一下，你林叔叔的降压药是氨氯地平，每天早饭后吃一片 #dad_med
bot: 好的阿姨，记住了。需要我每天早上提醒林叔叔吃药吗？
mom: 要要要，他老是忘
dad: 我没忘哈，就忘过两回
aunt: 我吃的是缬沙坦，医生说跟姐夫那个不一样 #aunt_med
@2026-01-28 18:45
feng: 机票也买好了，2月14号下午的川航，落地双流机场 #feng_flight_v1
dad: 行，那两天我连着跑火车站和机场[捂脸]
@2026-02-02 21:30
feng: 不好意思改签了，还是14号，但是改成落天府机场，下午四点二十到 #feng_flight_v2
dad: 天府机场远得很，那我两点就得出门
mom: 早点走，别堵在机场高速上
@2026-02-05 12:00
mom: 香肠腊肉都灌好了，晓晓要不要先寄两斤到上海
xiao: 要！寄到我浦东张江那边的公司吧，家里白天没人收 #xiao_address
mom: 好，今天就发顺丰
@2026-02-09 20:20
mom: 外婆八十五大寿是正月初六，大家那天都把时间空出来啊 #grandma_bday
aunt: 在哪办？去饭店吗
mom: 外婆说就在她金牛区的老房子里办，不去饭店，人多热闹 #grandma_place
xiao: 好的，我给外婆带个礼物
@2026-02-13 19:30
mom: 家里WiFi密码我改了，提示是你爸手机号后八位，别问我，我也记不住 #wifi_hint
dad: 我的手机号我总记得嘛
@20:58
xiao: 到成都东了！爸我在B出口
dad: 看到你了，往左边走
@2026-02-14 16:40
feng: 落地了，和小雨一起出来了
mom: 回来就好😊 饭都做好了
@2026-02-16 19:05
aunt: 除夕快乐！一家人吃团年饭咯[福]
xiao: 新年快乐！今年年夜饭一共十二个菜，妈辛苦了 #nye_dishes
feng: 小雨说妈做的粉蒸肉是她吃过最好吃的
mom: 哈哈哈 嘴巴真甜
bot: 祝大家除夕快乐，马年大吉，身体健康🐴
@2026-02-17 00:05
dad: 新年快乐！发个红包[红包]
feng: 谢谢老爸！抢到8.88
xiao: 我才0.66[流泪]
aunt: 手气不错嘛峰峰
@2026-02-22 22:10
mom: 今天外婆那边热闹得很，外婆高兴得很
aunt: 照片发群里了，大家自己存哈
@2026-02-24 09:30
xiao: 我坐上回上海的车了，到了报平安
mom: 好，腊肉香肠记得放冰箱
mom: 还有啊，上海那边天气潮，被子要经常拿出去晒，一个人在外面不要老是点外卖，周末自己煮点稀饭也好，钱不够了就跟妈说，别不好意思开口，听到没有，你爸嘴上不说，心里也天天惦记你
""")

c.session("g2", "wechat", "group", group_id="g2", group_name="姐弟俩的秘密基地", text="""
@2026-01-18 22:00
xiao: 今年给爸妈的红包咱俩怎么出
feng: 姐我还是学生啊[可怜]
xiao: 那我出大头，你意思一下
feng: 我出1000，你出3000？ #hongbao_v1
xiao: 行，另外给外婆包个888
@22:15
xiao: @小助手 记一下：给爸妈的红包我3000，峰峰1000；外婆的888我俩平摊
bot: 好的，已记下。外婆那份888平摊下来，姐弟俩每人出444元。 #grandma_split
@2026-01-26 21:15
feng: 姐，我想给爸买个按摩椅，他腰不好
xiao: 按摩椅太占地方了，妈肯定嫌弃
feng: 那买个腰部按摩靠垫？SKG那个六百多
xiao: 可以，我再给妈买条羊绒围巾
@2026-01-30 20:40
feng: 给爸的按摩靠垫下单了，639，直接寄家里 #cushion_price
xiao: 围巾我也买了，驼色的，妈喜欢素一点的 #scarf
@2026-02-08 23:00
feng: 姐，红包能不能改一下，我奖学金下来了，我也出2000
xiao: 哟，有钱了嘛，那给爸妈的红包就你2000我3000，凑个五千整 #hongbao_final
feng: 👌👌👌 姐最好了
@2026-02-10 21:30
xiao: 小雨第一次来，妈要给她见面红包吧
feng: 妈说准备好了，给小雨包1001，千里挑一 #xiaoyu_hongbao
xiao: 哈哈哈妈真会
@2026-02-11 22:00
feng: 姐你说小雨带什么见面礼给爸妈好
xiao: 别太贵，爸爱喝酒但是血压高，别送酒
xiao: 送茶叶或者水果就挺好
feng: 那就让小雨带一箱智利车厘子给爸妈，五斤装的 #xiaoyu_gift
xiao: 可以，实惠又好看
@2026-02-20 21:00
feng: 姐，过完年你啥时候回上海
xiao: 24号早上的高铁，你呢
feng: 我25号走，小雨23号先回长沙
""")

c.session("p-xiao", "wechat", "private", text="""
@2026-01-08 23:15
xiao: 小助手，帮我记一下：我青霉素过敏，以后看病提醒我跟医生说 #xiao_allergy
bot: 好的，已记住，以后看病我会提醒你。
xiao: 最近老加班，胃不太舒服
bot: 少喝点咖啡，按时吃饭。一直不舒服的话还是去医院看看。
@2026-01-12 21:10
xiao: 抢到票了哈哈哈，终于可以回家了
bot: 恭喜！路上记得带点吃的。
@2026-01-19 22:30
xiao: 年终奖发了，税后三万二 #bonus
bot: 恭喜恭喜！打算怎么安排？
xiao: 一半存定期，一半留着过年花
@2026-02-03 21:00
xiao: 上海这边房子三月到期，房东说要涨房租
bot: 涨多少呀？
xiao: 从5800涨到6300，我在考虑要不要搬 #rent_v1
bot: 涨幅不小，可以先跟房东谈谈，实在不行再看房。
@2026-02-04 22:40
xiao: 我游泳卡还剩12次，三月底就过期了，提醒我多去几次 #swim_card
bot: 好的，每周提醒你一次。
@2026-02-12 09:00
xiao: 明天回家，帮我列个要带的东西
bot: 身份证、充电器、给爸妈的礼物、换洗衣服、常用药。
xiao: 还有给外婆买的护膝，别忘了 #grandma_kneepad
bot: 护膝已经加上了👍
@2026-02-20 15:30
xiao: 在家天天被催婚😩
bot: 抱抱，过年期间这个话题确实躲不掉……
xiao: 二姨还要给我介绍对象，说是她同事的儿子，在银行上班 #matchmaking
bot: 可以先加个微信聊聊看，不合适也没关系。
@2026-02-26 20:00
xiao: 跟房东谈下来了，涨到6000，再续一年 #rent_final
bot: 还不错，省了搬家的折腾。
xiao: 是的，搬家太累了，上次搬家光打包就花了一个周末，还摔碎了两个盘子，这次能不搬就不搬
""")

c.session("p-mom", "wechat", "private", text="""
@2026-01-10 09:20
mom: 小助手你好，我是林晓的妈妈
bot: 阿姨好！有什么我能帮您的？
mom: 我手机微信的字太小了，看不清，咋个调大
bot: 打开微信点“我”，再点“设置”→“通用”→“字体大小”，往右拖就行。
mom: 好了好了，谢谢你哈[抱拳]
mom: 我跟你说嘛我们年纪大了眼睛不好，上次那个字小得我都看不清楚，你林叔叔也是，天天拿着手机刷视频刷到半夜都不睡，说了也不听，眼睛都熬红了，你有空帮我劝劝他
@2026-01-21 15:00
mom: 小雨花生过敏，那花生酱能不能吃
bot: 花生酱就是花生做的，不能吃，炒菜也别用花生油。
mom: 晓得了晓得了
@2026-01-27 08:10
mom: 老林今天早上量血压，高压145，低压92 #dad_bp_v1
bot: 有点偏高，提醒叔叔按时吃药，少吃咸的。
@2026-02-06 14:20
mom: 我家泰迪豆豆这两天不爱吃东西 #doudou
bot: 天冷狗狗胃口会差一些，先观察两天，还不吃就去宠物医院看看。
mom: 过年我们要去外婆那边住几天，家里那只小泰迪放楼下王阿姨家寄养 #doudou_boarding
bot: 好的，记得把它的狗粮和小窝一起带过去。
@2026-02-10 08:05
mom: 今天老林量的132/85，好多了 #dad_bp_v2
bot: 比上次好不少，继续保持！
@2026-02-15 16:00
mom: 帮我看看年夜饭菜单：粉蒸肉、回锅肉、清蒸鲈鱼、凉拌鸡、白菜豆腐汤，还差啥
bot: 可以加个甜的，比如八宝饭，再来个清炒的素菜，比如蒜蓉西兰花。
mom: 八宝饭好，晓晓最爱吃
mom: 凉拌鸡里的花生碎今年不放了
bot: 对，小雨在，这个很重要👍
""")

c.session("web", "webui", "private", text="""
@2026-01-14 23:40
feng: 开题报告要在3月6号之前交给导师，帮我记一下 #thesis_v1
bot: 好的，3月1号提醒你一次。
feng: 我导师姓黄，特别严格，格式错一点都要打回来 #advisor
bot: 那提交前我帮你对一遍格式清单。
@2026-01-23 00:20
feng: 第一次带女朋友回家，有啥要注意的
bot: 提前跟爸妈沟通好她的饮食习惯，见面礼不用太贵，主要是心意。
feng: 小雨是湖南人，能吃辣，这点在我家应该没问题 #xiaoyu_hunan
@2026-02-01 22:00
feng: 我在深圳南山区租的房子，回家这段时间要不要拉电闸 #feng_home
bot: 冰箱清空的话可以拉，记得关好门窗和燃气。
@2026-02-18 23:10
feng: 小雨生日是3月3号，我想提前准备礼物 #xiaoyu_bday
bot: 她最近有没有提过想要什么？
feng: 她说想要个拍立得，富士mini 12 #xiaoyu_gift_idea
bot: 那款颜色挺多的，可以挑她喜欢的颜色，再配两盒相纸。
@2026-02-25 21:30
feng: 回深圳了。导师说开题可以推迟，改到3月13号之前交 #thesis_v2
bot: 好的，提醒时间也跟着往后挪了。
feng: 终于能喘口气了
""")

c.q("xiao", "p-xiao", "我回成都坐的那趟高铁晚上几点到站", ["xiao_train"], "paraphrase")
c.q("dad", "g1", "G2193 是哪天的车", ["xiao_train"], "lexical")
c.q("dad", "g1", "峰峰最后是落哪个机场，几点到", ["feng_flight_v2"], "update")
c.q("mom", "g1", "一月底峰峰刚买好机票时，说的是落哪个机场", ["feng_flight_v1"], "temporal")
c.q("xiao", "g2", "年夜饭最后定在哪儿吃、跟谁一起", ["nye_v2"], "update")
c.q("mom", "p-mom", "峰峰女朋友吃东西要避开什么", ["xiaoyu_allergy"], "paraphrase")
c.q("xiao", "p-xiao", "爸每天吃的降压药叫什么名字", ["dad_med"], "lexical")
c.q("mom", "p-mom", "她二姨吃的是哪种控制血压的药", ["aunt_med"], "paraphrase")
c.q("mom", "p-mom", "老林最近一次量的血压是多少", ["dad_bp_v2"], "update")
c.q("xiao", "g2", "家里上网的密码提示是什么", ["wifi_hint"], "lexical")
c.q("feng", "web", "外婆八十五岁生日是哪天、在哪里办", ["grandma_bday", "grandma_place"], "multi_hop")
c.q("aunt", "g1", "给晓晓寄的年货寄到了上海哪个区", ["xiao_address"], "paraphrase")
c.q("feng", "web", "外婆那份红包我要出多少", ["grandma_split"], "paraphrase")
c.q("feng", "web", "最后给爸妈的红包我和姐各出多少", ["hongbao_final"], "update")
c.q("xiao", "p-xiao", "给爸买的那个按摩靠垫花了多少钱", ["cushion_price"], "lexical")
c.q("feng", "g2", "姐给妈买的围巾是什么颜色", ["scarf"], "lexical")
c.q("xiao", "p-xiao", "妈给小雨准备的见面红包是多少", ["xiaoyu_hongbao"], "lexical")
c.q("xiao", "p-xiao", "去医院看病时我得提醒医生注意什么", ["xiao_allergy"], "paraphrase")
c.q("xiao", "p-xiao", "公司年底发的那笔奖金到手多少", ["bonus"], "paraphrase")
c.q("xiao", "p-xiao", "上海房租最后谈成多少", ["rent_final"], "update")
c.q("xiao", "p-xiao", "2月初房东一开始说要把房租涨到多少", ["rent_v1"], "temporal")
c.q("xiao", "p-xiao", "游泳卡还剩几次，什么时候过期", ["swim_card"], "lexical")
c.q("mom", "p-mom", "过年出门那几天狗狗托给谁照顾", ["doudou_boarding"], "paraphrase")
c.q("feng", "web", "开题报告现在最晚哪天交", ["thesis_v2"], "update")
c.q("feng", "web", "小雨生日是几号，她想要什么礼物", ["xiaoyu_bday", "xiaoyu_gift_idea"], "multi_hop")
c.q("dad", "g1", "除夕那天晚上一共做了几个菜", ["nye_dishes"], "temporal")
c.q("xiao", "p-xiao", "二姨要给我介绍的那个人是干什么工作的", ["matchmaking"], "paraphrase")
c.q("xiao", "p-xiao", "回家时给外婆带的是什么礼物", ["grandma_kneepad"], "paraphrase")
c.q("dad", "g1", "1月16号去问的时候，老码头除夕还剩哪个时段", ["nye_slot"], "temporal")
c.q("xiao", "g2", "爸去火车站接我、去机场接峰峰，分别是哪两天", ["xiao_train", "feng_flight_v2"], "multi_hop")
c.q("feng", "g2", "小雨给爸妈带的见面礼是什么", ["xiaoyu_gift"], "paraphrase")
c.q("feng", "web", "我导师姓什么", ["advisor"], "lexical")
c.q("feng", "web", "我读研期间租的房子在哪个区", ["feng_home"], "paraphrase")
c.q("mom", "p-mom", "一月底老林量的那次血压高压多少", ["dad_bp_v1"], "temporal")
c.q("xiao", "g2", "给爸买的靠垫多少钱，给妈的围巾是什么颜色", ["cushion_price", "scarf"], "multi_hop")


# ---------------------------------------------------------------------------
# zh03 — 游戏开黑群（王者荣耀、原神、Steam、线下面基）
# ---------------------------------------------------------------------------
c = Conv("zh03", [("hao", "阿豪"), ("yu", "小鱼"), ("kai", "老K"), ("mumu", "木木"), ("tang", "唐唐")])

c.session("g1", "qq", "group", group_id="g1", group_name="峡谷五黑车队", text="""
@2026-04-03 21:02
hao: 家人们，今晚五排冲不冲
kai: 冲！刚下班，等我扒两口饭
yu: 我来我来，今天辅助手感巨好
mumu: +1，我补位就行
tang: 我九点半下播，下播就来
@21:40
hao: 车满了，上号上号
kai: 我王者ID还是“K神不坑”，没加的加一下 #kai_wzid
yu: 已经拉你了，快点准备
@23:55
hao: 五连胜！小鱼的瑶yyds
yu: 嘿嘿[害羞]
kai: 我鲁班被抓了八次，心态崩了
kai: 真不怪我啊，对面打野开局就蹲我下路草丛，辅助还不跟我，一个鲁班能怎么办，出门就被抓，抓完又抓，塔都没摸到两下，我严重怀疑对面开了透视，赛后必须举报，这把不算不算
mumu: K哥你鲁班出门就送，蚌埠住了
@2026-04-05 14:20
hao: 以后固定一下吧，每周五晚上九点五黑，谁有空谁来 #schedule_v1
kai: 可以，周五最合适
hao: @小助手 帮忙记一下，到点喊人
bot: 好的，我会提前半小时在群里喊大家上号。
@2026-04-10 20:30
bot: 还有半小时开黑，@阿豪 @老K @小鱼 @木木 @唐唐 准备上号
tang: 今天我开播，你们来我直播间一起打？B站房间号886633 #tang_room
hao: 要上镜啊，我先去洗个头
@2026-04-12 16:00
kai: Steam春促开始了，《双人成行》打三折，四十多块 #it_takes_two
mumu: 想买！谁陪我玩
hao: 我陪你，这游戏必须两个人
@2026-04-17 22:30
hao: 新耳机到了，HyperX Cloud 2，399拿下，听脚步贼清楚 #hao_headset
kai: 我还在用手机送的耳机[捂脸]
tang: 求链接求链接
@2026-04-20 21:00
yu: 宣布一件事：我终于上王者了！！🎉 #yu_rank
hao: 恭喜恭喜！下个赛季带你冲荣耀
mumu: 小鱼牛哇牛哇
@2026-04-22 19:10
hao: 开黑能不能改个时间，我这学期周五晚上有课，改到每周六晚上八点行不 #schedule_v2
kai: 周六我可以
yu: 我也行，周六没课
tang: 周六我直播到九点，晚点来
bot: 收到，开黑提醒已经改好了。
@2026-04-23 12:00
kai: 五一要不要线下面基？我在广州，你们呢
hao: 我在番禺大学城，过去地铁一个小时 #hao_home
mumu: 我天河的，近
yu: 我去年搬到海珠区了 #yu_home
tang: 我在佛山，坐广佛线过去也快
kai: 那就天河体育西路那家网鱼网咖，5月1号下午两点 #meetup_v1
@2026-04-27 21:30
kai: 五一当天网鱼包厢订不到，改成5月2号下午两点，还是体育西路那家网鱼 #meetup_v2
hao: 收到收到，5月2号见
yu: OK，到时候见
@2026-05-02 18:30
hao: 今天面基太开心了，老K本人比游戏里帅[doge]
kai: 你就说我打得怎么样
tang: 网费AA，一人六十五，转给老K就行 #netbar_fee
yu: 已转～ 下次再约
@2026-05-09 19:30
bot: 开黑提醒：@阿豪 @老K @小鱼 @木木 @唐唐 半小时后上号
hao: 在了在了，马上上线
mumu: 今晚我要拿韩信证明自己
@2026-05-16 23:40
kai: 今晚打得太烂了，睡了睡了
yu: 晚安💤 明天还要早八
""")

c.session("g2", "qq", "group", group_id="g2", group_name="提瓦特摸鱼小组", text="""
@2026-04-06 10:15
yu: 新版本up池是谁来着
mumu: 下半是水神复刻
yu: 我攒了142抽，冲冲冲
@2026-04-08 22:40
yu: 破防了，90抽歪了个七七 #yu_pity
tang: 哈哈哈哈七七：你不欢迎我？
mumu: 下次就是大保底了，稳的
@2026-04-11 13:00
mumu: 发下UID，一起联机刷材料，末四位2333的那个就是我 #mumu_uid
yu: 加你了，通过一下
tang: 我也加了，带带我
@2026-04-15 21:10
tang: 木木你这个月到底氪了多少
mumu: 不多，就一个648 #mumu_spend_v1
yu: 就一个？？我不信
@2026-04-18 20:00
yu: 听说星铁也更新了，要不要入坑
tang: 入！我带你，新手池记得抽满
mumu: 小心钱包[doge]
@2026-04-19 12:30
tang: 对了我直播时间改了，以后每天晚上七点到九点 #tang_stream
yu: 好，有空就去挂着
@2026-04-29 21:15
mumu: 坦白了，这个月一共氪了1296，月卡还没算 #mumu_spend_v2
tang: 666666
yu: 学生党你是真的富
mumu: 家教赚的，不心疼[狗头]
@2026-05-11 22:00
yu: 大保底出了！！终于抽到了🎉
tang: 恭喜恭喜，欧气分我一点
mumu: 我就说稳的吧
@2026-05-21 10:00
yu: 谢谢大家的礼物，皮肤太好看了🥳
tang: 喜欢就好呀
""")

c.session("g3", "qq", "group", group_id="g3", group_name="生日惊喜小分队", text="""
@2026-04-28 20:00
mumu: 拉这个小群是因为：小鱼生日是5月20号，咱们合资给她买个皮肤吧 #yu_bday
hao: 好主意，她一直想要瑶的那个新皮肤
kai: 那个皮肤多少钱
hao: 首发折后168 #skin_price
tang: 四个人分，一人42？
bot: 对，168÷4=42，每人42元。
kai: 那我再加个蛋糕，蛋糕钱我出
@2026-05-06 21:00
tang: 我想单独送小鱼一个手办，皮肤就你们仨出吧
hao: 行，那皮肤钱重新算一下 @小助手
bot: 168÷3=56，给小鱼的皮肤钱改成阿豪、老K、木木每人56元。 #skin_split_v2
mumu: 收到，转给阿豪了
@2026-05-18 21:00
kai: 小鱼的生日蛋糕订好了，草莓千层，6寸，20号下午送到她海珠那边 #cake
hao: K哥靠谱[强]
tang: 手办也到了，是她最喜欢的那个角色
@2026-05-20 22:00
hao: 皮肤送出去了，小鱼开心疯了哈哈
mumu: 任务完成，解散[doge]
kai: 别解散，明年还用得上
""")

c.session("p-yu", "qq", "private", text="""
@2026-04-07 23:00
yu: 小助手，教我一下瑶怎么出装
bot: 辅助瑶一般先出辅助装，再补保命和冷却装，具体还是看对面阵容。
yu: 好的，我去试试
yu: 我一般用 iPad Pro 打，手机太卡了 #yu_device
bot: 大屏确实舒服，注意别边充电边玩太久。
@2026-04-21 00:10
yu: 上王者了，开心到睡不着
bot: 恭喜🎉 辛苦这么久了，早点休息
@2026-04-25 22:00
yu: 我猫毛过敏，面基要是去谁家撸猫我就不去了 #yu_allergy
bot: 记住了，以后推荐活动会避开有猫的地方。
@2026-05-07 20:30
yu: 想买个Switch，OLED还是Lite
bot: 主要在家玩选OLED，主要带出门选Lite。
yu: 那就OLED，闲鱼上二手1500左右 #yu_switch
@2026-05-10 21:00
yu: 5月19号要交课程论文，题目是短视频对大学生注意力的影响 #yu_paper
bot: 好的，17号提醒你检查格式。
yu: 救命还没开始写😭
@2026-05-19 23:50
yu: 论文交了！！终于解放
bot: 太棒了，好好休息一下吧
""")

c.session("p-kai", "qq", "private", text="""
@2026-04-09 22:00
kai: Steam好友码帮我存一下：38261047 #kai_steam
bot: 好的，已经存好了。
kai: 我库里游戏快三百个了，玩过的不到一半😂
bot: 喜加一爱好者实锤了
@2026-04-14 20:10
kai: 木木借走了我的Switch，说5月5号之前还 #switch_loan_v1
bot: 好的，5月5号提醒你问一下。
@2026-04-16 23:30
kai: 《黑神话：悟空》终于通关了，一周目打了七十多个小时 #wukong
bot: 恭喜通关！最难打的是哪个boss？
kai: 虎先锋，死了二十多次
@2026-04-24 19:00
kai: 我公司在珠江新城，下班打车到体育西路就十分钟 #kai_work
bot: 那面基选体育西路对你来说很方便。
@2026-05-05 21:00
kai: 木木说他在忙论文答辩，Switch要晚一周，5月12号再还 #switch_loan_v2
bot: 好的，提醒改到5月12号。
@2026-05-12 20:40
kai: Switch还回来了，他还顺手帮我贴了张钢化膜哈哈 #switch_back
bot: 木木挺有心的嘛
""")

c.session("web", "webui", "private", text="""
@2026-04-08 23:20
hao: 我的猫叫煤球，全黑的，今天又把我耳机线咬断了 #hao_cat
bot: 哈哈，猫咪喜欢咬线，可以给线套个保护套。
@2026-04-13 22:10
hao: 我这学期周五晚上七点到九点半有高数课，烦死了 #hao_class
bot: 高数加油，有不会的题可以发我。
@2026-04-19 21:00
hao: 帮我算下，这个月生活费1800，已经花了1540，还剩多少
bot: 1800-1540=260，这个月生活费还剩260元。 #hao_budget
hao: 还剩十天，吃土了
@2026-04-30 22:00
hao: 四级考试是6月13号，帮我记一下 #hao_cet
bot: 好的，考前一周提醒你。
hao: 我英语真的菜，上次四级考了425没过 #hao_cet_prev
bot: 差一点点！这次每天背30个单词，刷几套真题，问题不大。
@2026-05-14 23:00
hao: 我王者打野胜率62%，算高吗
bot: 挺不错了，打野能稳定六成以上说明节奏感很好。
hao: 嘿嘿，主要是小鱼辅助好
""")

c.q("yu", "p-yu", "现在车队每周几点开黑", ["schedule_v2"], "update")
c.q("mumu", "g1", "K哥在王者里的昵称叫什么", ["kai_wzid"], "paraphrase")
c.q("hao", "web", "唐唐的B站直播间号是多少", ["tang_room"], "lexical")
c.q("kai", "p-kai", "那个必须两个人玩的游戏春季促销打几折", ["it_takes_two"], "paraphrase")
c.q("tang", "g1", "阿豪那个 HyperX 耳机多少钱", ["hao_headset"], "lexical")
c.q("hao", "web", "小鱼是哪天在群里宣布自己上王者的", ["yu_rank"], "temporal")
c.q("yu", "p-yu", "面基最后定在哪天几点、哪家网吧", ["meetup_v2"], "update")
c.q("yu", "p-yu", "阿豪的学校在广州哪一片", ["hao_home"], "paraphrase")
c.q("tang", "g3", "小鱼生日是几号？给她订的蛋糕是什么口味", ["yu_bday", "cake"], "multi_hop")
c.q("mumu", "g3", "送小鱼的皮肤钱最后每人要摊多少", ["skin_split_v2"], "update")
c.q("yu", "g2", "我那次90抽歪出来的是哪个角色", ["yu_pity"], "lexical")
c.q("yu", "g2", "一起刷材料时，木木的游戏账号末四位是多少", ["mumu_uid"], "paraphrase")
c.q("tang", "g2", "木木这个月总共在原神里充了多少钱", ["mumu_spend_v2"], "update")
c.q("yu", "g2", "4月中旬木木第一次承认自己氪了多少", ["mumu_spend_v1"], "temporal")
c.q("kai", "p-kai", "我的Steam好友代码是多少", ["kai_steam"], "lexical")
c.q("kai", "p-kai", "木木后来改口说游戏机哪天还", ["switch_loan_v2"], "update")
c.q("kai", "p-kai", "Switch 实际上是哪天还回到我手里的", ["switch_back"], "temporal")
c.q("hao", "web", "我家那只黑猫叫什么", ["hao_cat"], "paraphrase")
c.q("hao", "web", "开黑从周五挪走是因为我哪门课，那门课几点上", ["schedule_v2", "hao_class"], "multi_hop")
c.q("kai", "p-kai", "面基那次网费一人多少，是在哪家网吧", ["netbar_fee", "meetup_v2"], "multi_hop")
c.q("yu", "p-yu", "我平时打王者用什么设备", ["yu_device"], "paraphrase")
c.q("yu", "p-yu", "课程论文什么时候截止，题目是什么", ["yu_paper"], "lexical")
c.q("yu", "p-yu", "我看中的那台二手游戏机大概多少钱", ["yu_switch"], "paraphrase")
c.q("kai", "p-kai", "黑猴那个游戏我一周目玩了多久", ["wukong"], "paraphrase")
c.q("hao", "web", "这个月生活费还剩多少", ["hao_budget"], "lexical")
c.q("hao", "web", "英语四级哪天考", ["hao_cet"], "lexical")
c.q("hao", "web", "我上一次考英语四级拿了多少分", ["hao_cet_prev"], "lexical")
c.q("yu", "g2", "唐唐现在每天什么时间段开播", ["tang_stream"], "paraphrase")
c.q("kai", "p-kai", "我公司在哪片，到体育西路打车要多久", ["kai_work"], "lexical")
c.q("yu", "p-yu", "为什么有猫的地方我去不了", ["yu_allergy"], "paraphrase")
c.q("hao", "g1", "四月下旬老K最开始提议五一那天几点在哪面基", ["meetup_v1"], "temporal")
c.q("mumu", "g1", "小鱼现在住在广州哪个区", ["yu_home"], "paraphrase")
c.q("kai", "p-kai", "木木借游戏机时原本说哪天还，后来又推到哪天", ["switch_loan_v1", "switch_loan_v2"], "multi_hop")


# ---------------------------------------------------------------------------
# zh04 — 考研 / 留学申请（互助群、申请群、图书馆占座群）
# ---------------------------------------------------------------------------
c = Conv("zh04", [("ting", "周婷"), ("wu", "吴凯"), ("zheng", "郑佳"), ("lei", "冯磊")])

c.session("g1", "qq", "group", group_id="g1", group_name="26考研上岸互助群", text="""
@2025-10-08 21:00
ting: 国庆结束，收心了家人们，今天起每天打卡
wu: 打卡+1，今天数学做了两套真题
zheng: 跟大家说一下，我决定不考研了，转去申请出国 #zheng_switch
ting: 啊？这么突然
zheng: 想了很久，还是想去美国读CS硕士，家里也支持
wu: 支持！那你还在群里陪我们卷哈哈
@2025-10-10 22:15
ting: 再提醒一遍：研招网网上报名10月24号截止，别拖到最后一天，系统会卡 #reg_deadline
wu: 我昨天就报完了
ting: 我也报了，报的北师大心理学学硕 #ting_target_v1
@2025-10-13 20:40
wu: 今天数学模考112，线代那块丢分太多了 #wu_math_v1
ting: 112已经很可以了
wu: 目标是130，还差得远
@2025-10-17 21:30
wu: 英语大作文图表题的模板传群文件了，文件名叫“吴凯的救命模板” #essay_template
ting: 爱了爱了，马上下载
zheng: 我也存一份，托福写作说不定用得上
@2025-10-20 22:00
ting: @小助手 帮我们算一下，今天到12月20号初试还有多少天
bot: 从10月20日到12月20日还有61天，加油！
wu: 61天……我慌了
ting: 别慌，稳住，我们能赢
@2025-10-22 23:10
ting: 跟大家说个事，我改报了，改成华东师范的应用心理专硕，学硕那边我模考分差太多了 #ting_target_v2
wu: 专硕也挺好的，上岸最重要
zheng: 婷婷冲！专硕也香
@2025-10-27 21:00
wu: 网上确认要传照片和身份证，各省截止时间不一样，我们省是11月5号 #confirm_deadline
ting: 收到，这周末就弄
@2025-11-08 12:00
wu: 今天婷婷生日！祝上岸的同时生日快乐🎂 #ting_bday
zheng: 生日快乐！！
bot: 周婷生日快乐🎉 祝一战成硕！
ting: 谢谢大家呜呜呜，今天休息半天
@2025-11-14 22:20
wu: 数学模考又考了一次，126！离130不远了 #wu_math_v2
ting: 卧槽牛啊，进步14分
zheng: 凯哥起飞🛫
@2025-11-20 21:00
ting: 政治肖四出了没？
wu: 还没，估计12月初
ting: 那我先刷肖八
@2025-11-28 23:00
ting: 最近焦虑到失眠，每天只睡五个小时
wu: 别熬了，身体最重要，睡够七小时效率反而高
zheng: 抱抱婷婷，考完了请你吃火锅
@2025-12-12 20:30
wu: 准考证打印出来了，考点在洪山区一个中学，骑车二十分钟 #wu_site
ting: 我的考点在武昌区，得早点出门 #ting_site
@2025-12-19 22:00
zheng: 明天就考了，祝两位都上岸！！
ting: 冲！！！谢谢佳佳
wu: 考完一起去吃烧烤
@2025-12-21 18:00
wu: 考完了！！！解放了
ting: 数学怎么样
wu: 最后一道大题没写完，不过整体还行
ting: 我专业课感觉挺好的，就是英语作文写得很虚，感觉跟题目要求的图表对不上，现在想想有点后悔
""")

c.session("g2", "qq", "group", group_id="g2", group_name="留学申请DDL打卡", text="""
@2025-10-09 20:00
lei: 欢迎郑佳加入申请大军！
zheng: 哈哈哈多多指教，学长你申的英国是吧
lei: 对，英国一年制金融硕士，LSE和帝国理工是梦校 #lei_target
zheng: 我申美国CS硕士，梦校是CMU的MSCS
@2025-10-15 21:20
zheng: 托福出分了，103，口语只有22😭 #toefl_v1
lei: 103可以了，口语再刷一次吧
zheng: 打算11月再考一次
@2025-10-18 22:00
lei: 雅思出分了，总分7.0，写作6.5 #ielts
zheng: 学长这是稳了啊
lei: 写作还差一点，我梦校要求单项都不低于7，得再考一次
@2025-10-25 21:00
zheng: 推荐信定了三个老师：数据结构的王教授、实习时的mentor李工、还有班主任陈老师 #rec_letters
lei: 王教授出了名的好说话，你选对了
@2025-11-01 21:00
zheng: @小助手 帮我记一下申请截止日期：第一所12月1号，最晚的一所1月15号 #zheng_ddls
bot: 好的，每个截止日期前一周都会提醒你。
@2025-11-16 20:00
zheng: 二战托福出分了！108，口语25 #toefl_v2
lei: 恭喜！！这下可以交了
@2025-11-20 23:30
lei: 收到曼大的offer了！！第一个offer🎉 #lei_offer
zheng: 学长太强了
lei: 曼大要交2000英镑押金占位，我得想想要不要交 #lei_deposit
@2025-11-25 21:00
zheng: PS改到第五版了，还是觉得开头不够抓人 #ps_version
lei: 开头别写“从小对计算机感兴趣”，老师看吐了
zheng: 哈哈哈我第一版就是这么写的
@2025-12-01 23:58
zheng: 第一所交了！！卡着点交的，心脏受不了
lei: 哈哈哈经典DDL战士
@2025-12-10 21:00
lei: 帝国理工也来offer了，决定去帝国，曼大押金不交了 #lei_final
zheng: 恭喜学长去梦校！
bot: 恭喜冯磊！🎉
""")

c.session("g3", "qq", "group", group_id="g3", group_name="图书馆占座小分队", text="""
@2025-10-11 07:10
wu: 今天我先到，帮你们占座，三楼东区靠窗那排
ting: 爱你凯哥，我马上到
@2025-10-14 07:30
ting: 以后固定坐三楼东区312、313、314，我们仨轮流早起占座 #seats
lei: 我就偶尔来，给我留个角就行
@2025-10-21 12:10
ting: 中午吃啥，二食堂还是外卖
wu: 二食堂的热干面，别的不想吃
lei: 我点了麦当劳，谁要一起点
@2025-10-28 21:30
wu: 以后奶茶别给我点了，我乳糖不耐受，喝完肚子疼一下午 #wu_lactose
ting: 那给你换燕麦奶的？
wu: 燕麦奶可以
@2025-11-04 07:20
lei: 今天图书馆停电检修，别来了，去教学楼自习吧 #power_outage
ting: 啊，还好你说了
@2025-11-12 22:30
ting: 图书馆闭馆时间从这周开始延长到晚上十一点了 #library_hours
wu: 考研人狂喜
@2025-11-18 07:15
wu: 轮到我占座了但我起不来……谁救救我
lei: 我正好早起跑步，帮你们占了
ting: 冯磊yyds
@2025-12-03 22:50
ting: 我水杯落在313了，粉色的保温杯，谁明天帮我看看 #ting_cup
wu: 明早帮你拿
""")

c.session("p-ting", "qq", "private", text="""
@2025-10-09 23:00
ting: 小助手，我每天学习计划：早上英语，下午专业课，晚上政治
bot: 安排得很合理，记得午休半小时。
ting: 专业课主要看彭聃龄的普心，已经过到第二遍了 #ting_book
bot: 第二遍可以开始做框架笔记了。
@2025-10-16 22:30
ting: 我英语单词用墨墨背单词，已经连续打卡45天了 #ting_vocab
bot: 坚持得很好！
@2025-10-23 23:40
ting: 跟爸妈商量好了，考不上就先工作，明年不二战 #ting_plan
bot: 有退路心态会轻松一些，全力以赴就好。
@2025-11-02 22:00
ting: 帮我记一下，研招网账号的密码提示：高中学号+我家小狗的名字 #ting_pwd_hint
bot: 好的，只记提示。
ting: 我家狗叫布丁，是只比熊，在老家我妈养着 #ting_dog
bot: 比熊好可爱！
@2025-11-21 21:00
ting: 最近心跳有点快，去校医院查了，医生说是焦虑，开了点谷维素 #ting_health
bot: 注意休息，适当运动放松一下。
@2025-12-05 22:00
ting: 考试那两天要带：准考证、身份证、2B铅笔、黑色签字笔、橡皮、尺子
bot: 还可以带一块手表，考场不一定看得到钟。
ting: 对，我把那块卡西欧带上 #ting_watch
@2025-12-22 10:00
ting: 考完了，感觉英语作文写跑题了😭
bot: 别想了，先好好休息几天。
""")

c.session("p-zheng", "qq", "private", text="""
@2025-10-12 22:00
zheng: 小助手，帮我规划一下申请时间线
bot: 可以这样排：10月底前把标化考完，11月上旬定下选校名单并跟推荐人确认时间，11月中旬文书定稿，12月开始按截止日期从早到晚陆续提交，每交完一所都检查一下推荐信有没有送达。
zheng: 我GRE已经考完了，326，写作3.5 #gre
bot: 326很有竞争力了。
@2025-10-19 21:30
zheng: 申请费好贵，一所差不多90美元，我打算申8所
bot: 8所×90美元=720美元，申请费加起来大概五千多人民币。 #app_fee_total
@2025-10-26 22:20
zheng: 王教授让我先写个推荐信草稿给他改 #rec_draft
bot: 常见做法，写的时候突出你在他课上的具体表现。
@2025-11-06 23:00
zheng: 选校最后定了8所，其中3所冲刺、3所主申、2所保底 #school_list
bot: 结构挺合理的。
@2025-11-22 22:30
zheng: 网申系统密码提示：梦校缩写+我的生日四位 #zheng_pwd
bot: 好的，只记提示。
@2025-12-02 09:00
zheng: 昨晚第一所卡着点交了，以后再也不拖了
bot: 哈哈，剩下的提前一周交吧。
zheng: 剩下7所，12月15号前全部交完 #zheng_plan_v1
@2025-12-16 20:00
zheng: 改主意了，有两所要等新的推荐信，剩下的推到1月5号前交完 #zheng_plan_v2
bot: 好的，提醒改到1月初。
""")

c.session("web", "webui", "private", text="""
@2025-10-09 23:30
wu: 我考浙大计算机，专业课考408 #wu_target
bot: 408四门课量很大，建议数据结构和计组优先。
wu: 我每天咖啡要喝三杯，不然扛不住 #wu_coffee
bot: 咖啡别太晚喝，不然影响睡眠。
@2025-10-19 22:00
wu: 408模考分数：数据结构38/45，计组30/45，操作系统25/35，网络18/25
bot: 这次408模考总分是111/150，操作系统和网络还有提升空间。 #wu_408
wu: 好，这周主攻操作系统
@2025-11-01 23:00
wu: 我女朋友在杭州工作，异地快两年了 #wu_gf
bot: 考研也是为了离得更近，加油！
@2025-11-15 21:10
wu: 数学错题本已经写到第三本了
bot: 考前把错题本再过两遍，比刷新题有用。
@2025-12-01 22:30
wu: 初试前一周打算调作息，每天早上六点半起 #wu_schedule
bot: 提前调整生物钟很有必要。
@2025-12-23 20:00
wu: 估分出来了，数学大概120，408大概105，总分应该能过线 #wu_estimate
bot: 估分不错，先放松几天，然后准备复试。
wu: 复试要考机试，我C++有点生疏了
bot: 可以每天刷两道题保持手感。
""")

c.q("ting", "p-ting", "在研招网填志愿的最后期限是哪天", ["reg_deadline"], "paraphrase")
c.q("wu", "web", "周婷最后报的是哪个学校什么专业", ["ting_target_v2"], "update")
c.q("wu", "web", "10月上旬周婷一开始报的是哪个学校", ["ting_target_v1"], "temporal")
c.q("ting", "g1", "凯哥第一次数学模考考了多少", ["wu_math_v1"], "temporal")
c.q("ting", "g1", "吴凯最近一次数学模考考了多少", ["wu_math_v2"], "update")
c.q("ting", "p-ting", "那份英语写作套路的文件叫啥", ["essay_template"], "paraphrase")
c.q("ting", "p-ting", "郑佳后来放弃考研，改走哪条路了", ["zheng_switch"], "paraphrase")
c.q("ting", "p-ting", "网上确认我们省截止到哪天", ["confirm_deadline"], "lexical")
c.q("wu", "web", "周婷生日是几月几号", ["ting_bday"], "temporal")
c.q("ting", "p-ting", "凯哥的考点在哪个区", ["wu_site"], "lexical")
c.q("ting", "p-ting", "我初试去哪个区考", ["ting_site"], "paraphrase")
c.q("lei", "g2", "郑佳第一次托福口语多少分", ["toefl_v1"], "temporal")
c.q("zheng", "p-zheng", "我托福最新的成绩是多少", ["toefl_v2"], "update")
c.q("zheng", "p-zheng", "冯磊雅思写作单项多少", ["ielts"], "lexical")
c.q("zheng", "p-zheng", "帮我写推荐的三位老师分别是谁", ["rec_letters"], "paraphrase")
c.q("zheng", "p-zheng", "我最晚那所学校的申请截止日期是哪天", ["zheng_ddls"], "lexical")
c.q("zheng", "g2", "冯磊最后决定去哪所学校", ["lei_final"], "update")
c.q("zheng", "g2", "冯磊拿到的第一个offer是哪所学校", ["lei_offer"], "lexical")
c.q("lei", "g2", "曼大那边要交多少占位押金", ["lei_deposit"], "lexical")
c.q("zheng", "p-zheng", "我的个人陈述改到第几稿了", ["ps_version"], "paraphrase")
c.q("ting", "g3", "我们仨在图书馆固定坐的位子是哪几个号", ["seats"], "paraphrase")
c.q("ting", "p-ting", "凯哥喝奶茶要注意什么", ["wu_lactose"], "paraphrase")
c.q("wu", "web", "11月初图书馆停电那天是谁通知的", ["power_outage"], "temporal")
c.q("lei", "g3", "自习的地方现在晚上开到几点", ["library_hours"], "paraphrase")
c.q("ting", "p-ting", "研招网的密码提示是什么", ["ting_pwd_hint"], "lexical")
c.q("ting", "p-ting", "研招网密码提示里那个宠物具体叫什么", ["ting_pwd_hint", "ting_dog"], "multi_hop")
c.q("ting", "p-ting", "我背单词用的是哪个App，坚持了多少天", ["ting_vocab"], "paraphrase")
c.q("ting", "p-ting", "校医给我开的是什么药", ["ting_health"], "paraphrase")
c.q("zheng", "p-zheng", "我GRE考了多少分", ["gre"], "lexical")
c.q("zheng", "p-zheng", "8所学校的申请费加起来大概多少", ["app_fee_total"], "lexical")
c.q("zheng", "p-zheng", "剩下那几所申请现在打算什么时候全部交完", ["zheng_plan_v2"], "update")
c.q("wu", "web", "我408那次模考总分多少", ["wu_408"], "lexical")
c.q("wu", "web", "我报的学校跟女朋友是不是在同一个城市", ["wu_target", "wu_gf"], "multi_hop")
c.q("zheng", "p-zheng", "周婷和吴凯的考点分别在哪个区", ["wu_site", "ting_site"], "multi_hop")
c.q("wu", "web", "考完以后估的分里数学大概多少", ["wu_estimate"], "lexical")
c.q("ting", "p-ting", "专业课我主要用的是哪本教材", ["ting_book"], "paraphrase")
c.q("zheng", "g2", "我两次托福总分分别是多少", ["toefl_v1", "toefl_v2"], "multi_hop")


# ---------------------------------------------------------------------------
# zh05 — 合租室友群 + 健身打卡群 + 宠物 + 新房装修
# ---------------------------------------------------------------------------
c = Conv("zh05", [("gao", "高远"), ("he", "何琳琳"), ("luo", "罗小川"), ("tian", "田甜"), ("ma", "马骁")])

c.session("g1", "qq", "group", group_id="g1", group_name="502合租群", text="""
@2026-05-04 21:00
gao: 五一回来了，家里谁把垃圾扔了？谢谢好心人
tian: 我扔的，放了五天都臭了😷
he: 可乐在家饿坏了，我一进门它就扑上来
luo: 乌龟慢慢倒是还好，三天不吃都没事哈哈 #luo_turtle
@2026-05-06 20:30
gao: 四月水电燃气账单出了：电费386.4，水费62，燃气45.6
gao: @小助手 帮忙算下四个人平摊每人多少
bot: 四月水电燃气合计494元，四人平摊每人123.5元，转给高远就行。 #bill_april
he: 已转，收一下
luo: 转了转了[OK]
tian: 已转～ 谢谢远哥
@2026-05-08 22:10
he: 提醒一下，可乐5月12号打第二针疫苗，宠物医院的人上门，那天早上谁在家帮我开下门 #cola_vaccine
tian: 我那天居家办公，我来开门
he: 爱你甜甜，回来给你带奶茶
@2026-05-11 19:00
gao: 垃圾值日排一下吧：周一三五我，周二四六小川，周日琳琳和甜甜轮流 #trash_v1
luo: 可以可以，我记一下
tian: 没问题，周日我先来
@2026-05-15 21:40
gao: 房东刘阿姨刚打电话，说七月起房租要从8800涨到9200 #rent_raise
luo: 又涨？去年刚涨过啊
he: 杭州这行情，涨400也正常吧……
tian: 能不能谈谈，我们都住了两年了
gao: 我明天再跟她谈
@2026-05-16 18:20
gao: 跟刘阿姨谈了，最后定的9000，从7月开始，每人多50 #rent_final
he: 高远辛苦！
tian: 还是你会谈
@2026-05-20 23:10
tian: 跟大家说个事，我公司要搬到滨江，我可能6月底就搬走了 #tian_move_v1
he: 啊不要啊😭
luo: 那得找新室友了
gao: 我问问朋友有没有要租的
@2026-05-26 21:00
gao: 新室友有着落了，我同事小董，7月1号住进甜甜那间 #new_mate
he: 靠谱吗，爱干净不
gao: 人挺干净的，不抽烟
@2026-05-29 20:15
tian: 好消息（对你们来说）：公司搬家推迟到九月了，我住到8月底再走 #tian_move_v2
he: 耶！！不用分开了
gao: 那我跟小董说一声，让他9月1号再搬进来 #new_mate_v2
@2026-06-01 22:00
luo: WiFi我重置了，密码提示：门牌号+房东姓的拼音 #wifi_hint
he: 收到，连上了
@2026-06-05 12:00
he: 明天6号是高远生日！晚上在家吃火锅庆祝吧 #gao_bday
luo: 好！我负责买菜
tian: 我来订蛋糕🎂
gao: 你们太好了😭 提醒一下，我对虾过敏，虾滑别买 #gao_allergy
luo: 收到，虾滑换成牛肉丸
@2026-06-06 22:30
he: 今晚火锅太满足了，可乐偷吃了一块牛肉丸🐱
gao: 谢谢大家，今晚超开心
@2026-06-10 21:10
gao: 五月账单：电费452.8，水费58，燃气31.2，这个月空调开得多
bot: 五月水电燃气合计542元，四人平摊每人135.5元。 #bill_may
luo: 空调太费电了[捂脸]
he: 要不我们约定一下，白天家里没人的时候空调都关掉，晚上睡觉设二十六度再加个定时，客厅那台老空调太耗电了，下个月要是还这么高，就跟刘阿姨商量能不能换台一级能效的，省下来的电费够我们吃顿火锅了
@2026-06-14 20:00
gao: 值日调整一下：小川最近老出差，改成周一三五我，周二四六琳琳，周日甜甜 #trash_v2
luo: 谢谢兄弟，回来请你喝酒
he: OK，没问题
@2026-06-18 22:30
he: 端午谁在杭州？可乐要找人喂
tian: 我不回老家，我来喂
he: 甜甜最好了，猫粮在阳台柜子第二层，一天两顿各一小碗 #cat_food
""")

c.session("g2", "qq", "group", group_id="g2", group_name="燃脂打卡营", text="""
@2026-05-05 07:00
ma: 大家早，燃脂营第一周开始，每天晚上九点前在群里发步数和饮食照片 #checkin_rule
he: 收到马教练
tian: 收到！这次一定瘦下来
gao: 我就来凑个热闹
@21:30
tian: 今天体重62.0，步数8600 #tian_weight_v1
he: 我体脂秤测了28%，目标是降到24% #he_bodyfat_goal
ma: 目标合理，八周可以做到
@2026-05-07 20:00
tian: 教练，我膝盖以前受过伤，能跳绳吗
ma: 膝盖有旧伤先别跳绳，换成椭圆机或者游泳，对关节冲击小 #tian_knee
tian: 好的，那我去办张游泳卡
@2026-05-12 21:00
gao: 今天晚饭：鸡胸肉沙拉+一根玉米[图片]
he: 高远你这沙拉酱放得也太多了吧
ma: 沙拉酱热量很高，换成油醋汁 #dressing
gao: 收到，明天就换
@2026-05-14 12:00
ma: 私教课报名：原价12节3600，五月团购价12节3200，要的私聊我 #pt_price
he: 心动了，想报一个
@2026-05-19 21:40
he: 今天一口气走了两万步，环西湖一圈🚶‍♀️ #he_steps
tian: 琳琳太卷了
ma: 注意拉伸，不然明天腿会酸
@2026-05-26 21:20
tian: 体重60.8了！掉了1.2公斤 #tian_weight_v2
ma: 很棒，保持这个节奏
@2026-06-02 07:30
ma: 通知：从这周开始，每周六早上八点在黄龙体育中心集体训练，自愿参加 #group_training
he: 我去我去，算我一个
gao: 周六早上八点……我尽量
@2026-06-09 21:10
he: 体脂测了25.5%，离目标还差一点 #he_bodyfat_v2
ma: 已经降了2.5个点，非常好
@2026-06-16 21:30
tian: 最新体重58.9，燃脂营结束前应该能到58 #tian_weight_v3
ma: 甜甜是这期进步最大的
@2026-06-18 12:00
ma: 端午大家可以吃粽子，但一天最多一个，尽量选杂粮粽，少吃肉粽
gao: 教练我已经吃了三个了[捂脸]
""")

c.session("p-he", "qq", "private", text="""
@2026-05-03 20:00
he: 小助手，我家可乐是只橘猫，公的，一岁半 #cola_info
bot: 橘猫好可爱！有什么需要我记的吗？
he: 它吃的猫粮是Orijen渴望六种鱼，一袋5.4kg，588块 #cola_food
bot: 记下了，快吃完的时候提醒你囤货。
@2026-05-13 09:30
he: 可乐昨天打完第二针疫苗了，医生说明年5月再打加强针 #cola_next_vaccine
bot: 好的，明年4月底提醒你预约。
@2026-05-22 22:00
he: 帮可乐约了绝育，6月3号上午，在文三路那家宠物医院 #cola_neuter_v1
bot: 好的，术前记得禁食禁水。
@2026-05-25 08:40
he: 我在滨江上班，每天骑电动车四十分钟，今天又下雨了😩 #he_work
bot: 雨天骑车注意安全，雨衣穿好。
@2026-05-30 21:00
he: 医生说可乐最近有点软便，绝育推迟到6月17号 #cola_neuter_v2
bot: 好的，已更新提醒。
@2026-06-08 22:10
he: 我妈下个月来杭州看我，住一周，帮我看看西湖区附近有什么酒店
bot: 可以看看黄龙或者文三路附近的连锁酒店，离你住的地方近，一晚三四百左右。
he: 好，让我妈住黄龙那边，离我近 #he_mom_hotel
@2026-06-17 16:00
he: 可乐绝育很顺利，戴着伊丽莎白圈在生闷气哈哈
bot: 哈哈，恢复期注意别让它舔伤口。
""")

c.session("p-luo", "qq", "private", text="""
@2026-05-09 21:00
luo: 小助手，我在余杭区买的房子交房了，89平，准备装修 #luo_flat
bot: 恭喜！预算大概多少？
luo: 预算15万，半包 #budget_v1
bot: 89平半包15万，做得精一点是够的。
@2026-05-13 20:30
luo: 设计师叫小周，方案下周出 #designer
bot: 好的，出方案后可以重点看收纳和动线。
@2026-05-18 19:00
luo: 今天正式开工了，先砸墙改水电 #reno_start
bot: 开工大吉！
@2026-05-27 22:00
luo: 客厅瓷砖选了马可波罗的800×800，卧室地板用圣象的 #tiles
bot: 都是大牌子，质量有保障。
@2026-06-08 21:00
luo: 今天水电验收过了，师傅说线管走得很规矩 #wiring
bot: 水电是隐蔽工程，验收过了就放心一大半了。
@2026-06-12 22:30
luo: 墙面刷立邦，客厅选了月光白，卧室刷浅灰 #paint
bot: 月光白很百搭，浅灰卧室也显得安静。
@2026-06-20 23:00
luo: 算了一下，加上全屋定制，总共要18万了，超预算三万 #budget_final
bot: 定制柜确实容易超，可以看看哪些柜子能晚点再做。
luo: 算了，一步到位吧
luo: 你是不知道，光橱柜就报了两万八，衣柜两万二，还有阳台柜和鞋柜，设计师说现在不做以后再做更麻烦，我想想也是，反正贷款都贷了，就是接下来半年得吃土了，天天吃公司食堂
@2026-06-25 22:00
luo: 等搬进新家，给乌龟慢慢换个大缸
bot: 好主意，再配个晒台和加热棒。
""")

c.session("p-tian", "qq", "private", text="""
@2026-05-06 22:00
tian: 小助手，我在减肥，帮我记着：每天摄入控制在1500大卡 #tian_kcal
bot: 好的，我会帮你估算每顿的热量。
tian: 另外我不吃羊肉，也不吃内脏 #tian_food
bot: 好的，都记住了。
@2026-05-10 12:30
tian: 今天中午吃了份黄焖鸡米饭，热量大概多少
bot: 一份大概800大卡左右，有点多了，晚饭吃清淡点。
@2026-05-15 21:00
tian: 游泳卡办了，1980一年，在西溪那边 #tian_swim
bot: 游泳对膝盖友好，很适合你。
@2026-05-21 23:00
tian: 新公司在滨江，到时候通勤要一个多小时 #tian_commute
bot: 搬过去之前可以先在滨江看看房子。
@2026-06-03 21:30
tian: 我生日是7月19号，要是那天体重能到57，就奖励自己一个包 #tian_bday_goal
bot: 有目标就有动力，冲！
@2026-06-11 22:00
tian: 奖励包包的目标改一下，57太难了，改成58 #tian_goal_v2
bot: 好的，目标已改成58公斤。
""")

c.session("web", "webui", "private", text="""
@2026-05-02 22:00
gao: 我是502的高远，房租我统一收，每月10号前转给房东 #rent_day
bot: 好的，每月8号提醒你收租。
gao: 我住主卧，每月2500，另外三间各2100 #room_rent
bot: 加起来正好8800，记下了。
@2026-05-17 10:00
gao: 跟房东谈完了，7月起总租金9000，每间多50，我那间变成2550 #gao_rent_new
bot: 好的，已更新。
@2026-05-20 21:30
gao: 我的车是2019年的卡罗拉，6月底要做四万公里的保养 #car
bot: 好的，6月20号左右提醒你预约4S店。
@2026-06-03 20:00
gao: 公司体检查出尿酸偏高，医生让我少吃海鲜少喝啤酒 #gao_uric
bot: 多喝水，少吃动物内脏和浓肉汤，三个月后复查一下。
@2026-06-15 21:40
gao: 想给爸妈报个旅游团去新疆，七月中旬，两个人预算两万
bot: 七月的北疆风景最好，可以看看十天左右的跟团游。
@2026-06-21 20:10
gao: 最后给爸妈订了携程的十天新疆跟团游，7月12号出发，两人一共一万八 #gao_trip_final
bot: 订好了就放心了，记得提醒叔叔阿姨带防晒和薄外套。
""")

c.q("tian", "g1", "四月份的水电燃气每人出了多少", ["bill_april"], "temporal")
c.q("luo", "p-luo", "五月那期水电账单我该转多少", ["bill_may"], "temporal")
c.q("he", "p-he", "兽医来家里给猫做第二次接种是几号", ["cola_vaccine"], "paraphrase")
c.q("luo", "g1", "现在每周谁哪天倒垃圾", ["trash_v2"], "update")
c.q("tian", "g1", "房东一开始说七月要把房租涨到多少", ["rent_raise"], "temporal")
c.q("he", "g1", "房租最后跟刘阿姨谈成了多少", ["rent_final"], "update")
c.q("luo", "p-luo", "甜甜最后打算住到什么时候再搬", ["tian_move_v2"], "update")
c.q("he", "p-he", "新室友最后定哪天搬进来", ["new_mate_v2"], "update")
c.q("he", "p-he", "接替甜甜那间房的新人是谁", ["new_mate"], "paraphrase")
c.q("tian", "g1", "屋里路由器的连接口令是按什么规则设的", ["wifi_hint"], "paraphrase")
c.q("tian", "p-tian", "高远生日是哪天，给他准备吃的要避开什么", ["gao_bday", "gao_allergy"], "multi_hop")
c.q("tian", "p-tian", "端午帮忙喂可乐，猫粮在哪找", ["cat_food"], "paraphrase")
c.q("he", "g2", "燃脂营每天的打卡规则是什么", ["checkin_rule"], "lexical")
c.q("tian", "p-tian", "膝盖有伤，教练建议我用什么代替跳绳", ["tian_knee"], "lexical")
c.q("gao", "web", "教练说吃沙拉该换成什么酱", ["dressing"], "paraphrase")
c.q("he", "p-he", "五月团购的私教课多少钱几节", ["pt_price"], "lexical")
c.q("tian", "p-tian", "我最近一次报的体重是多少", ["tian_weight_v3"], "update")
c.q("tian", "p-tian", "燃脂营第一天我多重", ["tian_weight_v1"], "temporal")
c.q("he", "g2", "琳琳给自己定的体脂目标是多少", ["he_bodyfat_goal"], "paraphrase")
c.q("he", "p-he", "我6月9号测的体脂是多少", ["he_bodyfat_v2"], "temporal")
c.q("gao", "web", "周末一起练的地点和时间是怎么定的", ["group_training"], "paraphrase")
c.q("he", "p-he", "可乐平时吃什么牌子的猫粮，一袋多少钱", ["cola_food"], "lexical")
c.q("he", "p-he", "可乐下次该打针是什么时候", ["cola_next_vaccine"], "paraphrase")
c.q("he", "p-he", "可乐做手术最后改到哪天", ["cola_neuter_v2"], "update")
c.q("he", "p-he", "可乐绝育约的那家医院在哪条路，后来改到了哪天", ["cola_neuter_v1", "cola_neuter_v2"], "multi_hop")
c.q("luo", "p-luo", "我的装修最后总共要花多少", ["budget_final"], "update")
c.q("luo", "p-luo", "刚交房时我打算在装修上花多少钱", ["budget_v1"], "temporal")
c.q("luo", "p-luo", "客厅地砖选的哪个牌子、多大尺寸", ["tiles"], "paraphrase")
c.q("luo", "p-luo", "客厅墙漆用的什么颜色", ["paint"], "paraphrase")
c.q("luo", "p-luo", "新房在哪个区、面积多大", ["luo_flat"], "paraphrase")
c.q("luo", "p-luo", "水电验收是哪天通过的", ["wiring"], "temporal")
c.q("tian", "p-tian", "我每天热量上限是多少", ["tian_kcal"], "paraphrase")
c.q("tian", "p-tian", "我生日是哪天，那天要达到的体重目标最后改成了多少", ["tian_bday_goal", "tian_goal_v2"], "multi_hop")
c.q("gao", "web", "给爸妈报的旅游团最后哪天出发、花了多少", ["gao_trip_final"], "update")
c.q("gao", "web", "7月以后我那间房每月交多少", ["gao_rent_new"], "update")
c.q("gao", "web", "五月初其他三间房各是多少钱", ["room_rent"], "temporal")
c.q("gao", "web", "体检报告哪项指标不正常，饮食上要忌什么", ["gao_uric"], "paraphrase")
c.q("gao", "web", "房租每个月几号之前要转给房东", ["rent_day"], "lexical")
c.q("he", "p-he", "我妈来杭州那一周住哪片", ["he_mom_hotel"], "paraphrase")
c.q("luo", "g1", "甜甜宣布要搬走时，最开始说的是什么时候走", ["tian_move_v1"], "temporal")
c.q("tian", "g1", "四月和五月的水电燃气，每人分别摊了多少", ["bill_april", "bill_may"], "multi_hop")


# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------
def build():
    conversations, questions = [], []
    n = 0
    for conv in CONVERSATIONS:
        conversations.append(conv.to_json())
        sess_ids = {s["id"] for s in conv.sessions}
        for asker, sess_suffix, text, golds, qtype in conv.questions:
            n += 1
            sid = f"{conv.cid}-{sess_suffix}"
            if sid not in sess_ids:
                raise KeyError(f"{conv.cid}: unknown session {sid}")
            if asker not in conv.people or asker == "bot":
                raise KeyError(f"{conv.cid}: unknown asker {asker}")
            missing = [g for g in golds if g not in conv.labels]
            if missing:
                raise KeyError(f"{conv.cid}: unknown gold label(s) {missing}")
            questions.append({
                "id": f"q{n:03d}",
                "conversation": conv.cid,
                "asker_id": conv.people[asker][0],
                "session": sid,
                "question": text,
                "gold": [conv.labels[g] for g in golds],
                "type": qtype,
            })
    return {"version": 1, "language": "zh", "conversations": conversations, "questions": questions}


if __name__ == "__main__":
    data = build()
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    n_msg = sum(len(s["messages"]) for c_ in data["conversations"] for s in c_["sessions"])
    print(f"wrote {OUT} ({len(data['conversations'])} conversations, {n_msg} messages, "
          f"{len(data['questions'])} questions)")
