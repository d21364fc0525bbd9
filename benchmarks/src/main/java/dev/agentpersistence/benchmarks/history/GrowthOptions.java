package dev.agentpersistence.benchmarks.history;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The command line of a growth benchmark: whole numbers as {@code --name=N}, the backends as {@code --backends=a,b} and
 * {@code --keep-data} to leave the run's data in place.
 */
public final class GrowthOptions {
    private final Map<String, Integer> numbers;
    private List<String> backends;
    private boolean keepData;

    private GrowthOptions(Map<String, Integer> numbers, List<String> backends) {
        this.numbers = numbers;
        this.backends = backends;
    }

    /**
     * @param numberDefaults the names of the number options (without {@code --}) with their defaults, in the order the
     *     usage message lists them
     * @throws IllegalArgumentException for an option not among them, naming the ones there are
     */
    public static GrowthOptions parse(
            String[] args, Map<String, Integer> numberDefaults, List<String> defaultBackends) {
        var options = new GrowthOptions(new LinkedHashMap<>(numberDefaults), defaultBackends);
        for (String arg : args) {
            String name = arg.startsWith("--") && arg.contains("=") ? arg.substring(2, arg.indexOf('=')) : null;
            String value = name == null ? null : arg.substring(arg.indexOf('=') + 1);
            if (name != null && numberDefaults.containsKey(name)) {
                options.numbers.put(name, Integer.parseInt(value));
            } else if ("backends".equals(name)) {
                options.backends = List.of(value.split(","));
            } else if (arg.equals("--keep-data")) {
                options.keepData = true;
            } else {
                throw new IllegalArgumentException("Unknown option " + arg + "; use "
                        + numberDefaults.keySet().stream()
                                .map(option -> "--" + option + "=N, ")
                                .collect(Collectors.joining())
                        + "--backends=a,b, --keep-data");
            }
        }
        return options;
    }

    public int number(String name) {
        return numbers.get(name);
    }

    public List<String> backends() {
        return backends;
    }

    public boolean keepData() {
        return keepData;
    }
}
