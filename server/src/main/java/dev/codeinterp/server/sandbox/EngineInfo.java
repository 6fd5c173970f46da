package dev.codeinterp.server.sandbox;

import java.util.List;

/**
 * What the sandbox engine reports about itself; {@code available == false} carries the reason in
 * {@code problem}. {@code runtimeVersion} is the version of {@code runtime}, null when unknown;
 * {@code runtimePlatform} gVisor's platform as the engine registers it ({@link RuntimePlatform}).
 */
public record EngineInfo(boolean available, String version, List<String> runtimes, String runtime, String runtimeVersion,
                         String runtimePlatform, String image, String problem) {

    public static EngineInfo unavailable(String runtime, String image, String problem) {
        return new EngineInfo(false, null, List.of(), runtime, null, null, image, problem);
    }
}
