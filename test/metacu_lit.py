"""lit test format for metacu: ShTest that skips the expected outputs
(NAME.gen.cu) lying beside the inputs. A module of its own so lit's worker
processes can unpickle it."""
import lit.formats


class MetacuShTest(lit.formats.ShTest):
    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        for test in super().getTestsInDirectory(
            testSuite, path_in_suite, litConfig, localConfig
        ):
            if not test.getSourcePath().endswith(".gen.cu"):
                yield test
