"""Tools: the registry (any function the model may call) and the BitMall six.

Introduced in notebook 00, where the agent's first turn calls them. Left out: tools
that change the world beyond the store's in-memory copy (payments, e-mail).
"""

from .bitmall import BitMall, bitmall_tools
from .registry import Tool, ToolRegistry

__all__ = ["BitMall", "Tool", "ToolRegistry", "bitmall_tools"]
