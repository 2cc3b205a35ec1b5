package dev.fieldprof.cli.demo;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything a demo run needs to know.
 *
 * @param programJar the sample program to analyze, instrument and run
 * @param workDir where the instrumented program, its model and device state go
 * @param devices simulated devices
 * @param sessionsPerDevice program runs per device, 0 for no limit
 * @param commandsPerSession user commands per program run
 * @param pause pause between two runs on one device
 * @param window estimation window
 * @param top methods shown
 * @param webPort port of the web view, 0 for any, -1 for none
 * @param duration how long to run, null for until stopped
 * @param privacy the reports' mode and ε, and the devices' budget
 * @param runEvery the span of use one program run stands for on a device's clock
 */
record DemoSettings(
        Path programJar,
        Path workDir,
        int devices,
        int sessionsPerDevice,
        int commandsPerSession,
        Duration pause,
        Duration window,
        int top,
        int webPort,
        Duration duration,
        DemoPrivacy privacy,
        Duration runEvery) {}
