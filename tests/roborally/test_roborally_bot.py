"""The reference bot's reading of the server's answers (no socket: messages in, messages out)."""

from swc_local.client.roborally_bot import RoboRallyBot


def bot_in_a_round(me=42):
    bot = RoboRallyBot(greedy=True, seed=1)
    bot.on_message("Welcome", {"clientID": me})
    bot.on_message("ActivePhase", {"phase": 3})
    return bot


def test_a_second_reboot_answer_that_crosses_the_round_end_is_no_error():
    # The robot falls twice before its first answer arrives; the server takes that answer for
    # both falls, the round ends, and the second answer meets "No reboot pending" (roborally.md §5.8).
    bot = bot_in_a_round()
    bot.on_message("Reboot", {"clientID": 42})
    bot.on_message("Reboot", {"clientID": 42})
    assert [m["messageType"] for m in bot.out] == ["RebootDirection", "RebootDirection"]
    bot.on_message("ActivePhase", {"phase": 2})
    bot.on_message("Error", {"error": "No reboot pending"})
    assert bot.report.errors == []


def test_a_reboot_answer_refused_beyond_the_crossing_ones_is_an_error():
    bot = bot_in_a_round()
    bot.on_message("Reboot", {"clientID": 42})
    bot.on_message("ActivePhase", {"phase": 2})
    bot.on_message("Error", {"error": "No reboot pending"})
    bot.on_message("Reboot", {"clientID": 42})
    bot.on_message("Reboot", {"clientID": 42})
    bot.on_message("ActivePhase", {"phase": 2})
    bot.on_message("Error", {"error": "No reboot pending"})
    bot.on_message("Error", {"error": "No reboot pending"})
    assert bot.report.errors == ["No reboot pending", "No reboot pending"]
