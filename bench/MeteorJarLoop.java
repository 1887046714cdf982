import edu.cmu.meteor.scorer.MeteorConfiguration;
import edu.cmu.meteor.scorer.MeteorScorer;
import edu.cmu.meteor.scorer.MeteorStats;
import edu.cmu.meteor.util.Constants;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

/**
 * The Meteor 1.5 jar's scoring loop, timed inside its own JVM (bench/meteor_speed.py --part english).
 *
 * Usage: java -cp meteor-1.5.jar bench/MeteorJarLoop.java HYP REF WARM
 * Scores every line of HYP against the same line of REF as the jar's command does with -l en -norm (one
 * getMeteorStats call per segment, English defaults: every module, task rank), the first WARM segments
 * untimed (the JIT's warm-up, as in a long run), then times the rest. Prints one line:
 * "timed_segments wall_s thread_cpu_s process_cpu_s final_score" (final score over all lines, to check that
 * the loop is the command's: it must equal `java -jar meteor-1.5.jar HYP REF -l en -norm`'s).
 */
public class MeteorJarLoop {
    public static void main(String[] args) throws Exception {
        List<String> hyps = Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8);
        List<String> refs = Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8);
        int warm = Integer.parseInt(args[2]);
        MeteorConfiguration config = new MeteorConfiguration();
        config.setLanguage("en");
        config.setNormalization(Constants.NORMALIZE_KEEP_PUNCT);
        MeteorScorer scorer = new MeteorScorer(config);
        MeteorStats total = new MeteorStats();
        for (int i = 0; i < warm; i++) {
            total.addStats(scorer.getMeteorStats(hyps.get(i), refs.get(i)));
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long wall = System.nanoTime();
        long thread = threads.getCurrentThreadCpuTime();
        long process = os.getProcessCpuTime();
        for (int i = warm; i < hyps.size(); i++) {
            total.addStats(scorer.getMeteorStats(hyps.get(i), refs.get(i)));
        }
        wall = System.nanoTime() - wall;
        thread = threads.getCurrentThreadCpuTime() - thread;
        process = os.getProcessCpuTime() - process;
        scorer.computeMetrics(total);
        System.out.println((hyps.size() - warm) + " " + wall / 1e9 + " " + thread / 1e9 + " " + process / 1e9 + " "
                + total.score);
    }
}
