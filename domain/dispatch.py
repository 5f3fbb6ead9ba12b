"""One way to route an event to the method that handles it: ``@handles(EventClass)``.

An engine *decides* each recorded event and a state *folds* each event; both
register their methods per event class with the same decorator, and the class
builds its table when it is defined (:class:`Dispatching`). The table maps an
event class to a method *name*, resolved on the class being built, so that:

* a subclass that overrides a method (same name) is dispatched to without
  registering it again: an override cannot silently fall out of the table;
* a subclass that registers another method for the same event class replaces
  the base's registration (an explicit override);
* two methods of one class registered for the same event class raise
  ``TypeError`` when the class is defined, never at the first such event.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar


def handles(*classes: type) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated method for each of ``classes`` (see :class:`Dispatching`)."""

    def mark(method: Callable[..., Any]) -> Callable[..., Any]:
        method.__handles__ = getattr(method, "__handles__", ()) + classes  # type: ignore[attr-defined]
        return method

    return mark


class Dispatching:
    """Base of classes whose methods handle events by class: the table is ``HANDLERS``.

    Raises ``TypeError`` at class definition when one class registers two
    methods for the same event class.
    """

    HANDLERS: ClassVar[dict[type, Callable[..., Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names: dict[type, str] = {}
        for klass in reversed(cls.__mro__):
            own: dict[type, str] = {}
            for name, attr in vars(klass).items():
                for event_cls in getattr(attr, "__handles__", ()):
                    if event_cls in own:
                        raise TypeError(f"{klass.__name__} handles {event_cls.__name__} twice: "
                                        f"{own[event_cls]} and {name}")
                    own[event_cls] = name
            names.update(own)  # a subclass's registration replaces its base's
        # Resolve each name on this class: an override by name is what runs.
        cls.HANDLERS = {event_cls: getattr(cls, name) for event_cls, name in names.items()}
