"""What the command line needs to write text as the services write it: the formats each registry holds (what
``--format`` offers, a plug-in's included), the layout and width of text, and counts in words.

The registries are the reports floor's (``projections.reports.registry``); the command names them through this
module, the service layer, as it names everything else.
"""

from __future__ import annotations

from gamelog.domain.messages import plural
from gamelog.projections.reports.registry import Layout, audit_formats, reconcile_formats, report_formats, stats_formats
from gamelog.projections.reports.terminal import WIDTH, Style, plain, severity_color

__all__ = ["WIDTH", "Layout", "Style", "audit_formats", "plain", "plural", "reconcile_formats", "report_formats",
           "severity_color", "stats_formats"]
