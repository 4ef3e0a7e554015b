// Parameters of study published_examples: none. Its inputs are the papers'
// own examples, so there is nothing to tune (the common flags still apply)
// and every scale is the same.
#ifndef PRIVBENCH_EXPERIMENTS_PUBLISHED_EXAMPLES_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_PUBLISHED_EXAMPLES_CONFIG_H_

namespace privbench::published_examples {

struct Config {};

}  // namespace privbench::published_examples

#endif  // PRIVBENCH_EXPERIMENTS_PUBLISHED_EXAMPLES_CONFIG_H_
