// Stryker's vitest runner, with one correction (issue 28): a mutant after which a test file failed without running a
// test (it could not even be collected) is killed, not survived. Stryker 9's runner counts only the tests it
// collected, so a static mutant that makes a module throw as it loads, or breaks a machine that a model test file
// walks as it collects its tests, was reported as Survived although that file fails (stryker-js issues #6209 and
// #6213). Used by stryker.config.json as the test runner 'vitest-files'.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { INSTRUMENTER_CONSTANTS } from '@stryker-mutator/api/core';
import { commonTokens, declareFactoryPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import { MutantRunStatus } from '@stryker-mutator/api/test-runner';

const require = createRequire(import.meta.url);
const runnerDir = path.dirname(require.resolve('@stryker-mutator/vitest-runner/package.json'));
const { VitestTestRunner } = await import(pathToFileURL(path.join(runnerDir, 'dist/src/vitest-test-runner.js')).href);

class VitestFilesRunner extends VitestTestRunner {
  async mutantRun(options) {
    const result = await super.mutantRun(options);
    if (result.status !== MutantRunStatus.Survived) return result;
    const failed = this.ctx.state.getFiles().filter((file) => file.result?.state === 'fail');
    if (!failed.length) return result;
    const why = failed.map((file) => `${file.name}: ${file.result.errors?.[0]?.message?.split('\n')[0] ?? 'failed'}`).join('; ');
    return { status: MutantRunStatus.Killed, failureMessage: `A test file failed without a failing test: ${why}`, killedBy: [], nrOfTests: result.nrOfTests };
  }
}

function createRunner(injector) {
  return injector.provideValue('globalNamespace', INSTRUMENTER_CONSTANTS.NAMESPACE).injectClass(VitestFilesRunner);
}
createRunner.inject = tokens(commonTokens.injector);

export const strykerPlugins = [declareFactoryPlugin(PluginKind.TestRunner, 'vitest-files', createRunner)];
