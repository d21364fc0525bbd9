package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.cli.internal.Progress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Progress: a bar redrawn in place with rate and time left on a terminal; plain lines otherwise. */
class ProgressTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void onATerminalOneLineIsRedrawnWithBarRateAndTimeLeft() {
        var clock = new AtomicLong();
        var err = new StringWriter();
        var progress = new Progress(new PrintWriter(err), true, clock::get);
        progress.start("checkpoints", 100);
        clock.addAndGet(5 * SECOND);
        progress.advance(50);
        assertThat(err.toString())
                .isEqualTo("\r[###############               ] 50/100 checkpoints, 10/s, 5s left\u001b[K");
        clock.addAndGet(5 * SECOND);
        progress.advance(50);
        progress.finish();
        assertThat(err.toString())
                .endsWith("\r[##############################] 100/100 checkpoints, 10/s, 10s in all\u001b[K"
                        + System.lineSeparator());
    }

    @Test
    void elsewherePlainLinesAtMostEveryFiveSecondsAndOneAtTheEnd() {
        var clock = new AtomicLong();
        var err = new StringWriter();
        var progress = new Progress(new PrintWriter(err), false, clock::get);
        progress.start("checkpoints", -1);
        clock.addAndGet(SECOND);
        progress.advance(10);
        clock.addAndGet(5 * SECOND);
        progress.advance(110);
        clock.addAndGet(SECOND);
        progress.advance(20);
        progress.finish();
        assertThat(err.toString().lines().toList())
                .containsExactly("120 checkpoints, 20/s", "140 checkpoints, 20/s, 7s in all");
        assertThat(err.toString()).doesNotContain("\r", "left");
    }
}
