#include "pass_catalog.hpp"

#include "passes/attention_fusion.hpp"
#include "passes/common_subexpression_elimination.hpp"
#include "passes/constant_folding.hpp"
#include "passes/conv_activation_fusion.hpp"
#include "passes/conv_batch_norm_fusion.hpp"
#include "passes/conv_bias_add_fusion.hpp"
#include "passes/conv_residual_add_fusion.hpp"
#include "passes/dead_node_elimination.hpp"
#include "passes/elementwise_chain_fusion.hpp"
#include "passes/gelu_fusion.hpp"
#include "passes/identity_elimination.hpp"
#include "passes/layer_norm_fusion.hpp"
#include "passes/matmul_activation_fusion.hpp"
#include "passes/matmul_bias_add_fusion.hpp"
#include "passes/reshape_chain_folding.hpp"
#include "passes/shape_inference.hpp"
#include "passes/transpose_optimization.hpp"

namespace asc::fusion {

std::vector<std::shared_ptr<const Pass>> builtin_passes() {
  return {
      std::make_shared<IdentityElimination>(),
      std::make_shared<ConstantFolding>(),
      std::make_shared<CommonSubexpressionElimination>(),
      std::make_shared<ShapeInference>(),
      std::make_shared<ReshapeChainFolding>(),
      std::make_shared<TransposeOptimization>(),
      std::make_shared<ConvBatchNormFusion>(),
      std::make_shared<ConvBiasAddFusion>(),
      std::make_shared<MatMulBiasAddFusion>(),
      std::make_shared<GeluFusion>(),
      std::make_shared<LayerNormFusion>(),
      std::make_shared<AttentionFusion>(),
      std::make_shared<ConvResidualAddFusion>(),
      std::make_shared<ConvActivationFusion>(),
      std::make_shared<MatMulActivationFusion>(),
      std::make_shared<ElementwiseChainFusion>(),
      std::make_shared<DeadNodeElimination>(),
  };
}

bool is_scope_fusion(const std::string& pass_name) { return pass_name == "AttentionFusion"; }

}  // namespace asc::fusion
