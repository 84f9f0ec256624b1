"""ReActAgent: think, call a tool, read the result, repeat; then answer.

Introduced in notebook 00 (the loop and its guards) and notebook 01 (why it forgets).
The agent is stateless: `run()` rebuilds the messages array every turn. Memory is
injected from outside (notebook 02), so strategies are swappable. Four guards stop a
turn that goes wrong: max steps, repeated call (`same_calls`), token budget and no
progress (`no_progress`). Two more keep a misbehaving model in bounds: an empty reply
is never taken as the answer, and one step runs at most `max_tool_calls_per_step`
tools. `lang` is the language of the agent's system prompt and printed trace: "en",
"zh", "auto" (each user message's own), or None, the package's setting read at every
turn (`set_lang("zh")`, notebooks/zh/00). Whatever it is, the model is told to answer
in the customer's language, and an apology follows the question's language. The
messages a turn leaves in memory carry the ids its tools returned (`grounded_ids`):
a summary then tells a fact from the agent's own claim (memory/entities.py). Here
is the loop; a turn's bookkeeping is in turn.py, its trace in trace.py (printed by
trace_lines.py), the checks of its arguments in agent_args.py. Left out: streaming,
parallel tool execution and human approval of tool calls.
"""

from __future__ import annotations

from dataclasses import replace

from .agent_args import (
    DEFAULT_PROMPT_TOKENS,
    agent_lang,
    check_steps,
    check_user_text,
    prompt_budget,
)
from .chat_model import SupportsChat
from .guards import APOLOGIES, apology
from .lang import get_lang, is_chinese, say
from .memory.base import ChatMemory
from .memory.entities import returned
from .messages import ChatMessage, Role, clip
from .tokens import count_messages_tokens
from .tools.registry import ToolRegistry, check_agent_parts
from .trace import RunTrace, Step
from .trace_lines import TRACE_LABELS, step_lines, stop_line
from .turn import Turn

# `clip`, `Step` and `RunTrace` are imported from here by notebooks and older code.
__all__ = ["MEMORY_HINT", "MEMORY_HINT_ZH", "SYSTEM_PROMPT", "SYSTEM_PROMPT_ZH",
           "ReActAgent", "RunTrace", "Step", "TurnNotSavedError", "clip"]

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
SYSTEM_PROMPTS = {"en": SYSTEM_PROMPT, "zh": SYSTEM_PROMPT_ZH}
MEMORY_HINTS = {"en": MEMORY_HINT, "zh": MEMORY_HINT_ZH}


class TurnNotSavedError(RuntimeError):
    """The turn was answered (and paid for), but the memory failed to store it:
    `answer` holds the answer to show; `__cause__` is the memory's error."""

    def __init__(self, answer: str, cause: Exception) -> None:
        kind = type(cause).__name__
        super().__init__(say(f"the answer was not saved ({kind}: {cause})",
                             f"回答没有保存（{kind}：{cause}）"))
        self.answer = answer


class ReActAgent:
    """A BitMall clerk: `agent.run("Where is my order 88231?")` returns the answer."""

    def __init__(self, llm: SupportsChat, tools: ToolRegistry, max_steps: int = 10,
                 max_prompt_tokens: int = DEFAULT_PROMPT_TOKENS,
                 memory: ChatMemory | None = None,
                 verbose: bool = True, *, system_prompt: str | None = None,
                 remember_tool_calls: bool = False,
                 max_tool_calls_per_step: int = 8, lang: str | None = None,
                 labels: str | None = None, max_tokens: int | None = None) -> None:
        check_steps(max_steps, max_tool_calls_per_step, lang)
        max_prompt_tokens = prompt_budget(max_prompt_tokens, max_tokens, lang)
        self.lang = agent_lang(lang, labels)
        self.llm, self.tools, self.memory = check_agent_parts(llm, tools, memory)
        self.max_steps, self.verbose = max_steps, verbose
        # The prompt-token budget, checked before every model call. Not the reply's
        # cap: that is the client's `max_reply_tokens`.
        self.max_prompt_tokens = max_prompt_tokens
        # The printed trace's labels, in the language of the latest turn.
        self.trace_labels = TRACE_LABELS[self.turn_lang("")]
        # A model may ask for 2,000 refunds in one reply; the rest are refused.
        self.max_tool_calls_per_step = max_tool_calls_per_step
        # None: the package's prompt in the turn's language (see `turn_lang`).
        self.custom_prompt = system_prompt is not None
        self.system_prompt = system_prompt or SYSTEM_PROMPTS[self.turn_lang("")]
        # Off by default: remembering tool calls costs many tokens (notebook 02).
        self.remember_tool_calls = remember_tool_calls
        self.last_trace: RunTrace | None = None
        self._system: ChatMessage | None = None  # last system message, tokens cached

    def build_messages(self, text: str) -> list[ChatMessage]:
        """System prompt + remembered history + the new user message.

        Leading system messages from memory (a summary) are folded into the system
        prompt, because some providers reject system messages in mid-history.
        """
        history = self.memory.messages() if self.memory is not None else []
        lang = self.turn_lang(text)
        system = self.system_prompt if self.custom_prompt else SYSTEM_PROMPTS[lang]
        if self.memory is not None:
            system += "\n\n" + MEMORY_HINTS[lang]
        while history and history[0].role is Role.SYSTEM:
            system += "\n\n" + history.pop(0).content
        # Kept while the text is unchanged: its token count is cached on the message.
        if self._system is None or self._system.content != system:
            self._system = ChatMessage.system(system)
        return [self._system, *history, ChatMessage.user(text)]

    @property
    def max_tokens(self) -> int:
        """The older name of `max_prompt_tokens`."""
        return self.max_prompt_tokens

    def turn_lang(self, text: str) -> str:
        """The language of the prompt and trace for user message `text`."""
        if self.lang == "auto":
            return "zh" if is_chinese(text) else "en"
        return get_lang(self.lang)  # None: the package's setting, read every turn

    def run(self, text: str) -> str:
        """Answer one user message; the trace is in `self.last_trace` afterwards.

        The ReAct loop: think (one model call), act (run the tools it asks for),
        observe (their results join the messages), until it answers or a guard stops
        the turn.
        """
        check_user_text(text, self.lang)
        turn = Turn.start(self.build_messages(text), text)
        schemas, tools_tokens = self.tools.schemas(), self.tools.schema_tokens()
        self.trace_labels = TRACE_LABELS[self.turn_lang(text)]
        self._say(f"{self.trace_labels['user']}{text}")
        for number in range(1, self.max_steps + 1):
            tokens = count_messages_tokens(turn.messages) + tools_tokens
            # Checked before every model call: a request past the budget would be
            # expensive, or rejected for exceeding the provider's context window.
            if tokens > self.max_prompt_tokens:
                return self._stop(turn, "token_budget", tokens)
            response = self.llm.chat(turn.messages, tools=schemas)  # think
            turn.record_usage(response, tokens)
            if not response.tool_calls:  # no tool wanted: the answer, or why not
                return self._stop(turn, turn.final_answer(response), tokens)
            step, refused = turn.step(response, self.max_tool_calls_per_step)
            if turn.repeats >= 2:  # warned once already: stop the turn
                return self._stop(turn, "repeated_call", tokens)
            turn.act(step, self.tools, refused, self.max_tool_calls_per_step)  # act
            self._say(*step_lines(number, step, self.trace_labels))  # observe
            if turn.circling():
                return self._stop(turn, "no_progress", tokens)
        return self._stop(turn, "max_steps", 0)

    def _stop(self, turn: Turn, reason: str, tokens: int) -> str:
        """End the turn: the answer (or an apology), then memory, then the log."""
        trace = turn.trace
        trace.stop_reason = reason
        if reason in APOLOGIES:
            trace.answer = apology(reason, turn.zh, tokens, self.max_steps,
                                   self.max_prompt_tokens)
        self.last_trace = trace  # set first: the answer is known even if saving fails
        self._hand_request(turn.messages, trace.answer)
        self._remember(turn.own, trace.answer)
        self._say(stop_line(reason, trace, self.trace_labels))
        self._say(f"{self.trace_labels['agent']}{trace.answer}")
        return trace.answer

    def _hand_request(self, sent: list[ChatMessage], answer: str) -> None:
        """Hand a memory that compacts by a fork (memory/fork.py) the request just
        sent and its answer: its summary request can then start with the very
        tokens the provider has cached. Other memories have no `see_request`."""
        see = getattr(self.memory, "see_request", None)
        if see is not None:
            see([*sent, ChatMessage.assistant(answer)], self.tools.schemas())

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
        try:  # a session's add_all stores the whole turn in one transaction
            add_all = getattr(self.memory, "add_all", None)
            if add_all is not None:
                add_all(messages)
            else:
                for message in messages:
                    self.memory.add(message)
        except Exception as exc:  # a database, say: read-only, locked, full
            raise TurnNotSavedError(answer, exc) from exc

    def _say(self, *lines: str) -> None:
        if self.verbose and lines:
            print(*lines, sep="\n")
