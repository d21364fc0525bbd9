package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.cli.internal.InspectorServer;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web inspector in a real headless Chromium: pages load, links and the compare form navigate, a conversation pairs
 * each tool call with its result, a diff shows the added messages. Screenshots go to
 * {@code target/inspector-screenshots}, or to the directory named by the system property {@code inspector.screenshots}
 * (the ones in {@code docs/} were made with {@code -Dinspector.screenshots=../docs}).
 */
class InspectorInBrowserTest {
    @TempDir
    Path directory;

    private static Path screenshots() {
        return Path.of(System.getProperty("inspector.screenshots", "target/inspector-screenshots"));
    }

    @Test
    void browsesAgentsTimelineConversationAndDiff() throws Exception {
        Path file = directory.resolve("agents.db");
        try (var provider = StorageUri.parse("jdbc:sqlite:" + file.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            Fixtures.seed(provider);
        }
        try (Store store = Store.open("jdbc:sqlite:" + file, ProviderConfig.empty());
                InspectorServer server = InspectorServer.start(store, 0);
                HeadlessChromium browser = HeadlessChromium.start(directory)) {
            browser.open(server.uri());
            browser.waitFor("main[data-ready=agents]");
            List<String> rows = browser.findAll("#agents tbody tr");
            assertThat(rows).hasSize(2);
            assertThat(browser.text(rows.get(1))).contains("support", "plain", "3", "answer");
            browser.screenshot(screenshots().resolve("inspector-agents.png"));

            browser.click(browser.findAll("a.agent-link").get(1));
            browser.waitFor("main[data-ready=timeline]");
            assertThat(browser.currentUrl()).endsWith("#/agent/support");
            List<String> versions = browser.findAll("#timeline tbody tr");
            assertThat(versions).hasSize(3);
            assertThat(browser.text(versions.get(1))).contains("lookup", "4", "support-cp-1");
            assertThat(browser.pageText())
                    .as("the timeline of an agent that is not a pipeline run")
                    .doesNotContain("null");

            browser.click(browser.findAll("a.version-link").get(2));
            browser.waitFor("main[data-ready=checkpoint]");
            assertThat(browser.pageText())
                    .contains(
                            "Conversation (5 messages)",
                            "Where is my order 42?",
                            "parent\nsupport-cp-1",
                            "meta tenant\nacme",
                            "state resolved\ntrue")
                    .doesNotContain("[object");
            String call = browser.waitFor(".message.tool-call");
            assertThat(browser.text(call))
                    .contains("lookup_order({\"order\":42})", "shipped on March 2")
                    .containsIgnoringCase("result of lookup_order");
            assertThat(browser.findAll(".conversation > .message"))
                    .as("the result is shown inside its call only")
                    .hasSize(4);
            browser.screenshot(screenshots().resolve("inspector-conversation.png"));

            browser.open(server.uri().resolve("/#/agent/support"));
            browser.waitFor("main[data-ready=timeline]");
            browser.click(browser.waitFor("#compare"));
            browser.waitFor("main[data-ready=diff]");
            assertThat(browser.currentUrl()).endsWith("#/diff/support/1/2");
            assertThat(texts(browser, "#diff .added .message"))
                    .singleElement()
                    .asString()
                    .startsWith("#4")
                    .containsIgnoringCase("assistant")
                    .endsWith("Your order shipped on March 2.");

            browser.open(server.uri().resolve("/#/diff/support/0/2"));
            browser.waitFor("main[data-ready=diff]");
            assertThat(texts(browser, "#diff .added .message"))
                    .hasSize(3)
                    .anySatisfy(text -> assertThat(text).contains("lookup_order"))
                    .anySatisfy(text -> assertThat(text).contains("Your order shipped on March 2."));
            assertThat(browser.text(browser.waitFor("#node-change"))).isEqualTo("triage → answer");
            assertThat(browser.text(browser.waitFor("#state-change"))).contains("+ resolved", "− ticket", "~ mood");
            browser.screenshot(screenshots().resolve("inspector-diff.png"));

            browser.open(server.uri().resolve("/#/checkpoint/support/9"));
            browser.waitFor("main[data-ready=error]");
            assertThat(browser.text(browser.waitFor("#error"))).contains("no checkpoint version 9");
        }
    }

    @Test
    void showsAPipelineRunWithItsRetriedNodeAndTheFeedbackInTheConversation() throws Exception {
        Path file = directory.resolve("pipeline.db");
        try (var provider = StorageUri.parse("jdbc:sqlite:" + file.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            assertThat(PipelineRuns.run(provider, "release-1").isCompleted()).isTrue();
        }
        try (Store store = Store.open("jdbc:sqlite:" + file, ProviderConfig.empty());
                InspectorServer server = InspectorServer.start(store, 0);
                HeadlessChromium browser = HeadlessChromium.start(directory)) {
            browser.open(server.uri());
            browser.waitFor("main[data-ready=agents]");
            assertThat(browser.text(browser.findAll("#agents tbody tr").get(0)))
                    .as("the run is listed under its stored id, of kind run")
                    .contains("@run/release-1", "run");
            browser.click(browser.findAll("a.agent-link").get(0));
            browser.waitFor("main[data-ready=timeline]");
            assertThat(browser.currentUrl()).endsWith("#/agent/%40run%2Frelease-1");
            String run = browser.text(browser.waitFor("#pipeline-run"));
            assertThat(run)
                    .contains(
                            "Pipeline run release-1 of release-note: completed",
                            "__start__: run started",
                            "outline: passed on the first attempt",
                            "write: passed on attempt 2 (1 failed, rolled back and retried with feedback)",
                            "newest checkpoint saved by runner ",
                            "lease: none (not run through the pipeline's queue)");
            assertThat(browser.text(browser.waitFor("#pipeline-run .failed-attempts li")))
                    .as("the failed attempt's violation, as text")
                    .isEqualTo("attempt 1 failed\n[finished] " + PipelineRuns.VIOLATION);
            assertThat(browser.findAll("#pipeline-run b"))
                    .as("no stored text became markup")
                    .isEmpty();
            browser.screenshot(screenshots().resolve("inspector-pipeline-run.png"));

            browser.click(browser.waitForAll("#pipeline-run li.retried a").get(0));
            browser.waitFor("main[data-ready=checkpoint]");
            assertThat(browser.pageText()).contains(PipelineRuns.VIOLATION, "draft, done");
        }
    }

    private static List<String> texts(HeadlessChromium browser, String css) throws Exception {
        var texts = new ArrayList<String>();
        for (String element : browser.waitForAll(css)) {
            texts.add(browser.text(element));
        }
        return texts;
    }
}
