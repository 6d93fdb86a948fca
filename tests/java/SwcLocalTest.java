import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Your player against swc-local's reference bot, in your project's JUnit 5 tests
 * (src/test/java/SwcLocalTest.java): starts {@code swc serve --port 0}, reads the port it prints,
 * starts the reference bot ({@code swc bot GAME}) and your player's main class with the template's
 * {@code --port}, and checks that a whole game ended regularly.
 *
 * <p>{@code swc} is the executable on the PATH (or the environment variable SWC); the game and
 * your main class are system properties with the defaults below ({@code swc.game},
 * {@code player.main}).
 */
class SwcLocalTest {
    static final String SWC = System.getenv().getOrDefault("SWC", "swc");
    static final String GAME = System.getProperty("swc.game", "piranhas_2026");
    static final String PLAYER_MAIN = System.getProperty("player.main", "sc.player.util.Starter");
    static final Pattern LISTENING = Pattern.compile("swc\\.server: listening on [^:]+:(\\d+)");

    static final StringBuffer serverLog = new StringBuffer();
    static Process server;
    static int port;

    @BeforeAll
    static void startServer() throws Exception {
        // --port 0: a free port; --game: the game of a <join/> without a game type (the templates'
        // join); the other doors and the viewer stay closed, so nothing else needs a fixed port
        server = new ProcessBuilder(SWC, "serve", "--port", "0", "--game", GAME,
                "--no-reversixt", "--roborally-port", "-1", "--viewer-port", "-1")
                .redirectErrorStream(true).start();
        CompletableFuture<Integer> listening = new CompletableFuture<>();
        Thread reader = new Thread(() -> {  // reads the log to its end, so the server never blocks on it
            try (BufferedReader lines = server.inputReader(StandardCharsets.UTF_8)) {
                for (String line; (line = lines.readLine()) != null; ) {
                    serverLog.append(line).append('\n');
                    Matcher matcher = LISTENING.matcher(line);
                    if (matcher.find()) {
                        listening.complete(Integer.parseInt(matcher.group(1)));
                    }
                }
            } catch (IOException ignored) {
                // the server was stopped
            }
            listening.completeExceptionally(new IllegalStateException("swc serve ended:\n" + serverLog));
        });
        reader.setDaemon(true);
        reader.start();
        port = listening.get(60, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.destroy();  // SIGTERM: swc serve ends its games and exits within 2 s
        server.waitFor(10, TimeUnit.SECONDS);
    }

    @Test
    void playsAWholeGameAgainstTheReferenceBot() throws Exception {
        File botOutput = File.createTempFile("swc-bot", ".txt");
        File playerOutput = File.createTempFile("player", ".txt");
        Process bot = new ProcessBuilder(SWC, "bot", GAME, "--port", String.valueOf(port))
                .redirectErrorStream(true).redirectOutput(botOutput).start();
        String java = ProcessHandle.current().info().command().orElse("java");
        Process player = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), PLAYER_MAIN,
                "--port", String.valueOf(port))
                .redirectErrorStream(true).redirectOutput(playerOutput).start();
        try {
            assertTrue(player.waitFor(120, TimeUnit.SECONDS), "the player did not finish a game in 2 minutes");
            assertTrue(bot.waitFor(30, TimeUnit.SECONDS), "the reference bot did not finish");
        } finally {
            player.destroyForcibly();
            bot.destroyForcibly();
        }
        String played = Files.readString(playerOutput.toPath()) + Files.readString(botOutput.toPath()) + serverLog;
        assertEquals(0, player.exitValue(), played);
        assertTrue(serverLog.toString().contains(" ended: "), played);
        assertFalse(serverLog.toString().contains("broke a rule"), played);
        assertFalse(serverLog.toString().contains("did not move within"), played);
    }
}
