"""``Server(settings, families=...)``: a caller that plays one family's games opens that family's
door only (``swc match`` of an XML game takes no ReversiXT or Robo Rally port), without naming
the others."""

from __future__ import annotations

import trio

from swc_local.server.app import Server
from swc_local.server.config import Settings


async def test_a_host_given_one_family_opens_only_that_familys_door():
    sections = {"roborally": {"port": 0}}
    async with trio.open_nursery() as nursery:
        every = await nursery.start(Server(Settings(free_ports=True, sections=sections)).run)
        only = await nursery.start(Server(Settings(free_ports=True, sections=sections), families=("xml",)).run)
        assert {"xml", "reversixt", "roborally"} <= {door.name for door in every.doors}
        assert [door.name for door in only.doors if door.name != "web"] == ["xml"]
        nursery.cancel_scope.cancel()
