"""Tools: the registry (any function the model may call) and the BitMall six."""

from .bitmall import bitmall_tools
from .registry import Tool, ToolRegistry

__all__ = ["Tool", "ToolRegistry", "bitmall_tools"]
