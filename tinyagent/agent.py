"""ReActAgent: think, call a tool, read the result, repeat; then answer.

Introduced in notebook 00 (the loop and its guards) and notebook 01 (why it forgets).
The agent is stateless: `run()` rebuilds the messages array every turn. Memory is
injected from outside (notebook 02), so strategies are swappable. Four guards stop a
turn that goes wrong: max steps, repeated call (`same_calls`), token budget and no
progress (`no_progress`). Two more keep a misbehaving model in bounds: an empty reply
is never taken as the answer, and one step runs at most `max_tool_calls_per_step`
tools. `lang` is the language of the agent's system prompt and printed trace, read
at every turn by the package's one rule (lang.py): "en", "zh", "auto" (each user
message's own), or None (the setting, `set_lang("zh")`, notebooks/zh/00). Whatever it
is, the model is told to answer in the customer's language, and an apology follows
the question's language. The messages a turn leaves in memory carry the ids its
tools returned (`grounded_ids`): a summary then tells a fact from the agent's own
claim (memory/entities.py). Here is the loop; a turn's bookkeeping is in turn.py,
its trace and how it prints in trace.py. Left out: streaming, parallel tool
execution and human approval of tool calls.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from .chat_model import SupportsChat
from .checks import check_size
from .guards import APOLOGIES, apology
from .lang import Lang, Pair, get_lang, say
from .memory.base import ChatMemory, SeesRequests, add_turn
from .memory.entities import returned
from .messages import ChatMessage, Role
from .tokens import count_messages_tokens
from .tools.registry import ToolRegistry, check_agent_parts
from .trace import LABELS, RunTrace, StopReason, step_lines, stop_line
from .turn import Turn

SYSTEM_PROMPT = (
    "You are the customer-service assistant of BitMall, an online store. Help with "
    "orders, logistics, refunds and products. Use the tools to look facts up; never "
    "invent order details, prices or policies. Answer briefly, in the customer's "
    "language.")
MEMORY_HINT = ("The earlier turns of this conversation follow. Resolve references "
               "such as 'it', 'that order' or '那个' from them.")
# The same two texts for an agent that speaks Chinese (lang="zh", notebooks/zh).
SYSTEM_PROMPT_ZH = ("你是在线商店比特严选的客服助手，负责订单、物流、退款和商品方面的"
                    "问题。请用工具查询事实，不要编造订单信息、价格或政策。回答要简洁，"
                    "使用客户的语言。")
MEMORY_HINT_ZH = "下面是本次对话之前的几轮。请据此理解“它”“那个订单”等指代。"
SYSTEM_PROMPTS = Pair(SYSTEM_PROMPT, SYSTEM_PROMPT_ZH)
MEMORY_HINTS = Pair(MEMORY_HINT, MEMORY_HINT_ZH)


class TurnNotSavedError(RuntimeError):
    """The turn was answered (and paid for), but the memory failed to store it:
    `answer` holds the answer to show; `__cause__` is the memory's error."""

    def __init__(self, answer: str, cause: Exception) -> None:
        kind = type(cause).__name__
        super().__init__(say(f"the answer was not saved ({kind}: {cause})",
                             f"回答没有保存（{kind}：{cause}）"))
        self.answer = answer


class ReActAgent:
    """A BitMall clerk: `agent.run("Where is my order 88231?")` returns the answer.

    `max_tokens` bounds the prompt: the tokens one model call may send (system
    prompt, history, this turn so far and the tool schemas), checked before every
    call (the token-budget guard). It is not the reply's length cap, which the API
    calls max_tokens too: that is LlmClient's `max_reply_tokens`.
    """

    def __init__(self, llm: SupportsChat, tools: ToolRegistry, max_steps: int = 10,
                 max_tokens: int = 8000, memory: ChatMemory | None = None,
                 verbose: bool = True, *, system_prompt: str | None = None,
                 remember_tool_calls: bool = False, max_tool_calls_per_step: int = 8,
                 lang: Lang | Literal["auto"] | None = None) -> None:
        get_lang(lang)  # a language that is none of them fails here, not at run()
        check_size("max_steps", max_steps, 1, "one model call",
                   why_zh="每轮至少调用一次模型", lang=lang)
        check_size("max_tokens", max_tokens, 1, "a budget of prompt tokens",
                   why_zh="提示词的 token 预算", lang=lang)
        # A model may ask for 2,000 refunds in one reply; the rest are refused.
        check_size("max_tool_calls_per_step", max_tool_calls_per_step, 1,
                   "one tool call", why_zh="每步至少执行一次工具调用", lang=lang)
        self.llm, self.tools, self.memory = check_agent_parts(llm, tools, memory)
        self.max_steps, self.max_tokens, self.verbose = max_steps, max_tokens, verbose
        self.max_tool_calls_per_step, self.lang = max_tool_calls_per_step, lang
        self.system_prompt = system_prompt  # the property below
        # Off by default: remembering tool calls costs many tokens (notebook 02).
        self.remember_tool_calls = remember_tool_calls
        self.last_trace: RunTrace | None = None
        self._system: ChatMessage | None = None  # last system message, tokens cached

    @property
    def system_prompt(self) -> str:
        """The system prompt of the next turn: the one given, or the package's in
        the agent's language (for "auto", the setting's until a customer writes)."""
        return self._own_prompt or SYSTEM_PROMPTS.say(self.lang)

    @system_prompt.setter
    def system_prompt(self, text: str | None) -> None:
        """A prompt of your own from the next turn on; None: the package's again."""
        self._own_prompt = text

    def build_messages(self, text: str) -> list[ChatMessage]:
        """System prompt + remembered history + the new user message.

        Leading system messages from memory (a summary) are folded into the system
        prompt, because some providers reject system messages in mid-history.
        """
        history = self.memory.messages() if self.memory is not None else []
        lang = get_lang(self.lang, text)
        system = self._own_prompt or SYSTEM_PROMPTS.say(lang)
        if self.memory is not None:
            system += "\n\n" + MEMORY_HINTS.say(lang)
        while history and history[0].role is Role.SYSTEM:
            system += "\n\n" + history.pop(0).content
        # Kept while the text is unchanged: its token count is cached on the message.
        if self._system is None or self._system.content != system:
            self._system = ChatMessage.system(system)
        return [self._system, *history, ChatMessage.user(text)]

    def run(self, text: str) -> str:
        """Answer one user message; the trace is in `self.last_trace` afterwards.

        The ReAct loop: think (one model call), act (run the tools it asks for),
        observe (their results join the messages), until it answers or a guard stops
        the turn.
        """
        check_user_text(text, self.lang)
        lang = get_lang(self.lang, text)  # of the prompt and the printed trace
        turn = Turn.start(self.build_messages(text), text)
        schemas, tools_tokens = self.tools.schemas(), self.tools.schema_tokens()
        self._say(LABELS["user"].say(lang) + text)
        for number in range(1, self.max_steps + 1):
            tokens = count_messages_tokens(turn.messages) + tools_tokens
            # Checked before every model call: a request past the budget would be
            # expensive, or rejected for exceeding the provider's context window.
            if tokens > self.max_tokens:
                return self._stop(turn, StopReason.TOKEN_BUDGET, tokens, lang)
            response = self.llm.chat(turn.messages, tools=schemas)  # think
            turn.record_usage(response, tokens)
            if not response.tool_calls:  # no tool wanted: the answer, or why not
                return self._stop(turn, turn.take_reply(response), tokens, lang)
            step, refused = turn.step(response, self.max_tool_calls_per_step)
            if turn.repeats >= 2:  # warned once already: stop the turn
                return self._stop(turn, StopReason.REPEATED_CALL, tokens, lang)
            # act: the results join the messages, where the next call observes them
            turn.act(step, self.tools, refused, self.max_tool_calls_per_step)
            self._say(*step_lines(number, step, lang))
            if turn.circling():
                return self._stop(turn, StopReason.NO_PROGRESS, tokens, lang)
        return self._stop(turn, StopReason.MAX_STEPS, 0, lang)

    def _stop(self, turn: Turn, reason: StopReason, tokens: int, lang: Lang) -> str:
        """End the turn: the answer (or an apology), then memory, then the log."""
        trace = turn.trace
        trace.stop_reason = reason
        if reason in APOLOGIES:
            trace.answer = apology(reason, turn.lang, tokens, self.max_steps,
                                   self.max_tokens)
        self.last_trace = trace  # set first: the answer is known even if saving fails
        if isinstance(self.memory, SeesRequests):  # a memory that forks (fork.py)
            answered = [*turn.messages, ChatMessage.assistant(trace.answer)]
            self.memory.see_request(answered, self.tools.schemas())
        self._remember(turn.own, trace.answer)
        self._say(stop_line(reason, trace, lang), LABELS["agent"].say(lang)
                  + trace.answer)
        return trace.answer

    def _remember(self, own: list[ChatMessage], answer: str) -> None:
        """Commit the turn at once: the user message (and steps), then the answer."""
        if self.memory is None:
            return
        # Only now does memory change: a turn that raised earlier left it as it was.
        kept = own if self.remember_tool_calls else own[:1]
        # What the turn's tools returned: an id the agent writes outside it is its
        # own claim, and a summary must not keep it as a fact (memory/entities.py).
        ids = returned(m for m in own if m.role is Role.TOOL)
        kept = [m if m.role is Role.USER else replace(m, grounded_ids=ids)
                for m in kept]
        messages = [*kept, ChatMessage.assistant(answer, grounded_ids=ids)]
        try:  # a session takes the whole turn in one transaction (AddsTurns)
            add_turn(self.memory, messages)
        except Exception as exc:  # a database, say: read-only, locked, full
            raise TurnNotSavedError(answer, exc) from exc

    def _say(self, *lines: str) -> None:
        if self.verbose and lines:
            print(*lines, sep="\n")


def check_user_text(text: str, lang: Lang | Literal["auto"] | None = None) -> None:
    """ValueError unless `text` is a non-empty user message that is valid UTF-8."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(say(f"the user message must be non-empty text, got {text!r}",
                             f"用户消息不能为空，当前为 {text!r}", lang))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # bytes that were not UTF-8, decoded as surrogates
        raise ValueError(say("the user message is not valid UTF-8 text: save or type "
                             "it as UTF-8", "用户消息不是有效的 UTF-8 文本：请用 UTF-8 "
                             "编码保存或输入", lang)) from None
