package dev.agentpersistence.file.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WriterProcessTest {

    @Test
    void thisProcessIsIdentifiedAndNamesItsTemporaryFiles() {
        assertThat(WriterProcess.current()).isPresent();
        WriterProcess self = WriterProcess.current().orElseThrow();
        assertThat(self.pid()).isEqualTo(ProcessHandle.current().pid());
        String name = WriterProcess.newTempName();
        assertThat(name).startsWith(FileNames.TEMP_PREFIX);
        assertThat(FileNames.isScratch(name)).isTrue();
        assertThat(WriterProcess.ofTempName(name)).contains(self);
        assertThat(self.isKnownDead()).as("this process is alive").isFalse();
    }

    @Test
    void aReusedPidIsRecognisedByItsStartTime() {
        WriterProcess self = WriterProcess.current().orElseThrow();
        var earlierOwnerOfThisPid = new WriterProcess(self.host(), self.pid(), self.startMillis() - 60_000);
        assertThat(earlierOwnerOfThisPid.isKnownDead()).isTrue();
        var parsed = WriterProcess.ofTempName(earlierOwnerOfThisPid.tempName("0f1e2d3c-0000-4000-8000-000000000000"));
        assertThat(parsed).contains(earlierOwnerOfThisPid);
    }

    @Test
    void anEndedProcessIsDead() throws Exception {
        Process process = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        long pid = process.pid();
        long start = process.toHandle().info().startInstant().orElseThrow().toEpochMilli();
        var owner = new WriterProcess(WriterProcess.current().orElseThrow().host(), pid, start);
        assertThat(owner.isKnownDead()).isFalse();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(owner.isKnownDead()).isTrue();
    }

    @Test
    void ownersOfOtherHostsAndUnownedNamesAreLeftToTheGracePeriod() {
        WriterProcess self = WriterProcess.current().orElseThrow();
        var otherHost = new WriterProcess(
                "000000000000".equals(self.host()) ? "111111111111" : "000000000000", Long.MAX_VALUE, 1);
        assertThat(otherHost.isKnownDead()).isFalse();
        assertThat(WriterProcess.ofTempName(FileNames.TEMP_PREFIX + "0f1e2d3c-0000-4000-8000-000000000000"))
                .isEmpty();
        assertThat(WriterProcess.ofTempName(FileNames.TEMP_PREFIX + "live")).isEmpty();
        assertThat(WriterProcess.ofTempName(FileNames.TRASH_PREFIX + "0f1e2d3c"))
                .isEmpty();
        assertThat(WriterProcess.ofTempName(FileNames.TEMP_PREFIX + "abcdefabcdef_99999999999999999999_1_x"))
                .isEmpty();
    }
}
