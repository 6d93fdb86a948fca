import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tiny Piranhas 2026 player of the tests' own, standing in for a student's player built from the
 * official template: the template's options ({@code -h/--host}, {@code -p/--port},
 * {@code -r/--reservation}, also as {@code --port=N}), a bare {@code <join/>} or a
 * {@code <joinPrepared>}, and a random legal move on every move request, on nothing but the JDK.
 * It prints the result's winner and exits 0 after a result, 1 after an error message from the
 * server or a connection that ends without a result.
 */
public final class Player {
    static final String[] DIRECTIONS = {"UP", "UP_RIGHT", "RIGHT", "DOWN_RIGHT", "DOWN", "DOWN_LEFT", "LEFT", "UP_LEFT"};
    static final int[][] STEPS = {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};
    static final Pattern ATTRIBUTE = Pattern.compile("([\\w:]+)=\"([^\"]*)\"");

    final List<List<String>> rows = new ArrayList<>();
    final Random random = new Random(Long.getLong("player.seed", 1L));
    String team = "";
    String roomId = "";

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        String host = options.getOrDefault("host", "localhost");
        int port = Integer.parseInt(options.getOrDefault("port", "13050"));
        try (Socket socket = new Socket(host, port)) {
            System.exit(new Player().play(socket, options.get("reservation")));
        }
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> short_ = Map.of("-h", "host", "-p", "port", "-r", "reservation");
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("--") && arg.contains("=")) {
                options.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
            } else if (short_.containsKey(arg) && i + 1 < args.length) {
                options.put(short_.get(arg), args[++i]);
            } else if (arg.startsWith("--") && i + 1 < args.length) {
                options.put(arg.substring(2), args[++i]);
            } else {
                System.err.println("unknown option " + arg + "; allowed: -h/--host HOST -p/--port PORT -r/--reservation CODE");
                System.exit(2);
            }
        }
        return options;
    }

    int play(Socket socket, String reservation) throws Exception {
        Writer out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        boolean prepared = reservation != null && !reservation.isEmpty();
        out.write("<protocol>" + (prepared ? "<joinPrepared reservationCode=\"" + reservation + "\"/>" : "<join/>"));
        out.flush();
        StringBuilder text = new StringBuilder();
        boolean sawResult = false;
        boolean sawError = false;
        int c;
        while ((c = in.read()) != -1) {
            if (c != '<') {
                text.append((char) c);
                continue;
            }
            StringBuilder tag = new StringBuilder();
            while ((c = in.read()) != -1 && c != '>') {
                tag.append((char) c);
            }
            String name = tag.toString().trim().split("\\s+", 2)[0];
            Map<String, String> attributes = attributes(tag.toString());
            if (name.equals("/field")) {
                rows.get(rows.size() - 1).add(text.toString().trim());
            } else if (name.equals("row")) {
                rows.add(new ArrayList<>());
            } else if (name.equals("board")) {
                rows.clear();
            } else if (name.equals("room")) {
                roomId = attributes.getOrDefault("roomId", roomId);
            } else if (name.equals("data")) {
                String kind = attributes.getOrDefault("class", "");
                if (kind.equals("welcomeMessage")) {
                    team = attributes.get("color");
                } else if (kind.equals("moveRequest")) {
                    out.write("<room roomId=\"" + roomId + "\">" + move() + "</room>");
                    out.flush();
                } else if (kind.equals("result")) {
                    sawResult = true;
                } else if (kind.equals("error")) {
                    sawError = true;
                    System.out.println("error: " + attributes.get("message"));
                }
            } else if (name.equals("winner")) {
                System.out.println("result: winner=" + attributes.getOrDefault("team", "none") + " regular="
                        + attributes.get("regular") + " reason=" + attributes.get("reason"));
            } else if (name.equals("left") || name.equals("/protocol")) {
                break;
            }
            text.setLength(0);
        }
        if (!sawResult) {
            System.out.println("no result: the connection ended first");
        }
        return sawResult && !sawError ? 0 : 1;
    }

    static Map<String, String> attributes(String tag) {
        Map<String, String> attributes = new HashMap<>();
        Matcher matcher = ATTRIBUTE.matcher(tag);
        while (matcher.find()) {
            attributes.put(matcher.group(1), matcher.group(2));
        }
        return attributes;
    }

    /** A random legal move of the spec's rules (piranhas_2026.md, section 3), as the move's XML. */
    String move() {
        List<String> moves = new ArrayList<>();
        for (int y = 0; y < 10; y++) {
            for (int x = 0; x < 10; x++) {
                if (!field(x, y).startsWith(team + "_")) {
                    continue;
                }
                for (int d = 0; d < 8; d++) {
                    if (legal(x, y, STEPS[d])) {
                        moves.add("<data class=\"move\"><from x=\"" + x + "\" y=\"" + y + "\"/><direction>" + DIRECTIONS[d]
                                + "</direction></data>");
                    }
                }
            }
        }
        return moves.get(random.nextInt(moves.size()));
    }

    String field(int x, int y) {
        return x < 0 || y < 0 || x > 9 || y > 9 ? "OFF" : rows.get(y).get(x);
    }

    boolean isFish(String field) {
        return field.startsWith("ONE_") || field.startsWith("TWO_");
    }

    boolean legal(int x, int y, int[] step) {
        int distance = 1;
        for (int sign = -1; sign <= 1; sign += 2) {
            for (int k = 1; !field(x + sign * k * step[0], y + sign * k * step[1]).equals("OFF"); k++) {
                distance += isFish(field(x + sign * k * step[0], y + sign * k * step[1])) ? 1 : 0;
            }
        }
        for (int k = 1; k < distance; k++) {
            String passed = field(x + k * step[0], y + k * step[1]);
            if (passed.equals("OFF") || (isFish(passed) && !passed.startsWith(team + "_"))) {
                return false;
            }
        }
        String target = field(x + distance * step[0], y + distance * step[1]);
        return !target.equals("OFF") && !target.equals("SQUID") && !target.startsWith(team + "_");
    }
}
