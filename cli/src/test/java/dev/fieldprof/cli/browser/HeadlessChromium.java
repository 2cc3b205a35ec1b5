package dev.fieldprof.cli.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The system's headless Chromium driven by its chromedriver (Debian's {@code chromium} and {@code
 * chromium-driver}; {@code .ci/run} installs them), as every browser test opens it. {@link #start}
 * skips the calling test, saying why, only when the two binaries are missing; it installs nothing.
 *
 * <pre>{@code
 * try (HeadlessChromium browser = HeadlessChromium.start(tempDir, 1280, 1000)) {
 *     browser.driver().get(url);
 *     browser.screenshot(Path.of("target", "page.png"));
 * }
 * }</pre>
 */
public final class HeadlessChromium implements AutoCloseable {
    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriverService service;
    private final WebDriver driver;

    private HeadlessChromium(ChromeDriverService service, WebDriver driver) {
        this.service = service;
        this.driver = driver;
    }

    /**
     * Starts a browser with a fresh profile under {@code profileParent} and a window of this size;
     * skips the test when Chromium or chromedriver is not installed.
     */
    public static HeadlessChromium start(Path profileParent, int width, int height) {
        Assumptions.assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "browser test skipped: needs "
                        + CHROMIUM
                        + " and "
                        + CHROMEDRIVER
                        + " (apt-get install -y chromium chromium-driver)");
        ChromeDriverService service =
                new ChromeDriverService.Builder()
                        .usingDriverExecutable(CHROMEDRIVER.toFile())
                        .usingAnyFreePort()
                        .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        Path profile;
        try {
            profile = Files.createTempDirectory(profileParent, "chromium-profile");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // No network here: without these Chromium waits on connections it will never get.
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=" + width + "," + height,
                "--user-data-dir=" + profile);
        WebDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return new HeadlessChromium(service, driver);
    }

    public WebDriver driver() {
        return driver;
    }

    /**
     * Polls {@code condition} on the page until it holds (a real condition, checked every 100 ms,
     * never a fixed sleep); fails naming {@code what} after {@code timeout}.
     */
    public void await(Duration timeout, String what, Predicate<WebDriver> condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!holds(condition)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the page did not show " + what + " within " + timeout);
            }
            Thread.sleep(100);
        }
    }

    private boolean holds(Predicate<WebDriver> condition) {
        try {
            return condition.test(driver);
        } catch (StaleElementReferenceException e) {
            // A live page redrew the element between finding and reading it: ask again.
            return false;
        }
    }

    /** Writes a PNG of the window to {@code file} (creating its directory) and says where. */
    public void screenshot(Path file) throws IOException {
        byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.write(file, png);
        System.out.println("screenshot: " + file.toAbsolutePath());
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
        }
    }
}
