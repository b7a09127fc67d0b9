"""A player's own panel, opened from their tab: what they hold, and their secret Legacy behind a
privacy step (it is never on screen unless that player asks for it)."""
from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from .. import theme
from .centerville_panel import CentervillePlayerPanel
from .centerville_setup import LegacyPrivately
from .common import TouchButton


class PlayerView(ModalView):
    def __init__(self, state, seat: int, legacies: dict[str, str], **kwargs):
        super().__init__(size_hint=(0.9, 0.92), background="", background_color=theme.PANEL, **kwargs)
        s = theme.scaled
        name = state.names[seat]
        box = BoxLayout(orientation="vertical", padding=s(8), spacing=s(6))
        self.panel = CentervillePlayerPanel()
        self.panel.show(state, seat)
        box.add_widget(self.panel)
        row = BoxLayout(size_hint_y=None, height=s(56), spacing=s(8))
        if seat != state.bot:
            secret = legacies.get(name) or (state.legacies[seat] if state.legacies[seat] else None)
            legacy = TouchButton(text=f"{name}'s Legacy (private)", text_px=18)
            legacy.bind(on_release=lambda *_: LegacyPrivately(name, current=secret).open()
                        if secret else LegacyPrivately(name).open())
            legacy.disabled = secret is None
            row.add_widget(legacy)
        close = TouchButton(text_px=18, text="Close", bold=True, fill=theme.CONFIRM_DEEP, size_hint_x=0.4)
        close.bind(on_release=lambda *_: self.dismiss())
        row.add_widget(close)
        box.add_widget(row)
        self.add_widget(box)
